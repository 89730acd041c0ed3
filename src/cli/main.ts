import { ADOPT_HELP, ADOPT_USAGE, runAdoptCommand } from './adopt-command';
import { closestWord, UsageError } from './command-line';
import { endWithLauncher } from './parent-watch';
import { PROVIDER_HELP, PROVIDER_USAGE, runProviderCommand } from './provider-command';
import { runSimulatorCommand, SIMULATOR_HELP, SIMULATOR_USAGE } from './simulator-command';
import { SIMULATOR_START_USAGE, SIMULATOR_STATUS_USAGE, SIMULATOR_STOP_USAGE, simulatorStatus, startDetached, stopSimulators } from './simulator-lifecycle';
import { THIS_PACKAGE } from './this-package';

interface Command {
  /** What it does, in one line of the top-level help. */
  readonly summary: string;
  readonly usage: string;
  /** What `<command> --help` prints below the usage: each flag, and what it does. */
  readonly help?: string;
  /** Runs the command; resolves to its exit status. */
  readonly run: (args: readonly string[]) => Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  simulator: {
    summary: 'Run the API simulator: in the foreground, or start, status and stop it in the background',
    usage: [SIMULATOR_USAGE, SIMULATOR_START_USAGE, SIMULATOR_STATUS_USAGE, SIMULATOR_STOP_USAGE].join('\n       '),
    help: SIMULATOR_HELP,
    run: async ([verb, ...rest]) => {
      const print = (line: string) => process.stdout.write(`${line}\n`);
      if (verb === 'start') {
        (await startDetached(rest)).forEach(print);
        return 0;
      }
      if (verb === 'status') return simulatorStatus(rest, print);
      if (verb === 'stop') return stopSimulators(rest, print);
      await runSimulatorCommand(verb === undefined ? [] : [verb, ...rest], print, (line) => process.stderr.write(`${line}\n`));
      return 0;
    },
  },
  provider: {
    summary: 'Write the Terraform provider as a filesystem mirror, or a registry folder with signed releases',
    usage: PROVIDER_USAGE,
    help: PROVIDER_HELP,
    run: async (args) => {
      await runProviderCommand(args, (text) => process.stdout.write(text));
      return 0;
    },
  },
  adopt: {
    summary: 'Write a stack that adopts an account\'s servers as they are: the next plan imports them and shows no change',
    usage: ADOPT_USAGE,
    help: ADOPT_HELP,
    run: (args) => runAdoptCommand(args, { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) }),
  },
};

const USAGE = [
  `usage: ${Object.values(COMMANDS).map((c) => c.usage).join('\n       ')}`,
  `       ${THIS_PACKAGE.command} --version`,
  // Run by hand, the executable must say why it is not serving Terraform.
  ...(THIS_PACKAGE.standalone ? ['Terraform runs this file as its provider (hosting); run by hand, it is the command-line tool above.'] : []),
].join('\n');

/** The top-level help, as git's and terraform's: each command and what it does, then how to see its flags. */
const HELP = [
  USAGE,
  '',
  'Commands:',
  ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(11)}${c.summary}`),
  `  ${'--version'.padEnd(11)}Print the package and its version`,
  '',
  `"${THIS_PACKAGE.command} COMMAND --help" lists a command's flags and what each does.`,
].join('\n');
const isHelp = (arg: string) => arg === 'help' || arg === '--help' || arg === '-h';

/** The package and version; for the standalone executable also its platform and the Node inside. */
function versionLine(): string {
  const build = THIS_PACKAGE.version === '0.0.0' ? ' (a development build)' : '';
  const inside = THIS_PACKAGE.standalone ? `; the standalone provider executable for ${process.platform}/${process.arch}, Node ${process.versions.node} inside` : '';
  return `${THIS_PACKAGE.name} ${THIS_PACKAGE.version}${build}${inside}`;
}

/** Entry point of the package's command (`cdktf-server-hosting`, or `cdktn-server-hosting`). */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (name === '--version' || name === 'version') {
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  if (name !== undefined && isHelp(name)) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (!command) {
    const meant = name === undefined ? undefined : closestWord(name, Object.keys(COMMANDS));
    process.stderr.write(`${name ? `unknown command "${name}"${meant ? `; did you mean "${meant}"?` : ''}\n` : ''}${USAGE}\n`);
    return 2;
  }
  // Before any parsing: `provider mirror --help` must never take --help for a directory.
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(`usage: ${command.usage}\n${command.help ? `${command.help}\n` : ''}`);
    return 0;
  }
  endWithLauncher();
  try {
    return await command.run(args);
  } catch (err) {
    process.stderr.write(`${THIS_PACKAGE.command}: ${(err as Error).message}\n`);
    if (!(err instanceof UsageError)) return 1;
    process.stderr.write(`usage: ${err.usage}\n`);
    return 2;
  }
}
