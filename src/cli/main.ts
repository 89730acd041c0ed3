import { ADOPT_USAGE, runAdoptCommand } from './adopt-command';
import { PROVIDER_USAGE, runProviderCommand } from './provider-command';
import { runSimulatorCommand } from './simulator-command';

const USAGE = `usage: cdktf-server-hosting simulator [--port N] [--host ADDRESS]\n       ${PROVIDER_USAGE}\n       ${ADOPT_USAGE}`;

/** Entry point of the `cdktf-server-hosting` command. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (command === 'simulator') {
      await runSimulatorCommand(args, (line) => process.stdout.write(`${line}\n`));
      return 0;
    }
    if (command === 'adopt') {
      return await runAdoptCommand(args, { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) });
    }
    if (command === 'provider') {
      runProviderCommand(args, (text) => process.stdout.write(text));
      return 0;
    }
    process.stderr.write(`${command ? `unknown command "${command}"\n` : ''}${USAGE}\n`);
    return 2;
  } catch (err) {
    process.stderr.write(`cdktf-server-hosting: ${(err as Error).message}\n`);
    return 1;
  }
}
