import { ADOPT_HELP, runAdoptCommand } from './adopt-command';
import { commandToRun, helpOf, usageOf, wrap, WIDTH, type CommandHelp } from './command-help';
import { closestWord, didYouMean, meantFlags, UsageError } from './command-line';
import { endWithLauncher } from './parent-watch';
import { PROVIDER_HELP, PROVIDER_MIRROR_HELP, PROVIDER_REGISTRY_HELP, runProviderCommand } from './provider-command';
import { runSimulatorCommand, SIMULATOR_HELP } from './simulator-command';
import { SIMULATOR_START_HELP, SIMULATOR_STATUS_HELP, SIMULATOR_STOP_HELP, simulatorStatus, startDetached, stopSimulators } from './simulator-lifecycle';
import { THIS_PACKAGE } from './this-package';

interface Command {
  /** The command itself, when it runs without a subcommand (or with one it does not know). */
  readonly help: CommandHelp;
  /** Its subcommands' help, by their word (`start` of `simulator start`). */
  readonly verbs?: Readonly<Record<string, CommandHelp>>;
  /** The lines it has in the top-level help: itself, its subcommands, or both. */
  readonly listed: readonly CommandHelp[];
  /** Runs the command; resolves to its exit status. */
  readonly run: (args: readonly string[]) => Promise<number>;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

const COMMANDS: Record<string, Command> = {
  simulator: {
    help: SIMULATOR_HELP,
    verbs: { start: SIMULATOR_START_HELP, status: SIMULATOR_STATUS_HELP, stop: SIMULATOR_STOP_HELP },
    listed: [SIMULATOR_HELP, SIMULATOR_START_HELP, SIMULATOR_STATUS_HELP, SIMULATOR_STOP_HELP],
    run: async ([verb, ...rest]) => {
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
    help: PROVIDER_HELP,
    verbs: { mirror: PROVIDER_MIRROR_HELP, registry: PROVIDER_REGISTRY_HELP },
    listed: [PROVIDER_MIRROR_HELP, PROVIDER_REGISTRY_HELP],
    run: async (args) => {
      await runProviderCommand(args, (text) => process.stdout.write(text));
      return 0;
    },
  },
  adopt: {
    help: ADOPT_HELP,
    listed: [ADOPT_HELP],
    run: (args) => runAdoptCommand(args, { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) }),
  },
};

/** The help of the command `words` name: the subcommand, when the word after the command is one. */
const helpFor = (command: Command, words: readonly string[]): CommandHelp => command.verbs?.[words[0] ?? ''] ?? command.help;

/** The command as the user ran it, at the head of every command line this prints; errors begin with its name. */
const TOOL = THIS_PACKAGE.runnable;

const USAGE = [`usage: ${TOOL} COMMAND [OPTIONS]`, `       ${TOOL} --version`].join('\n');

/** The top-level help, as git's and terraform's: each command and what it does, then how to see its options. */
function topHelp(): string {
  const helps = Object.values(COMMANDS).flatMap((c) => c.listed);
  return [
    USAGE,
    '',
    'Commands:',
    ...helps.map((h) => `  ${h.words.padEnd(19)}${h.summary}`),
    '',
    ...commandToRun('A command\'s options and an example (or COMMAND --help)', `${TOOL} help COMMAND`),
    // Run by hand, the executable must say why it is not serving Terraform.
    ...(THIS_PACKAGE.standalone ? ['', ...wrap('Terraform runs this file as its provider (hosting); run by hand, it is the command-line tool above.', WIDTH)] : []),
  ].join('\n');
}

const isHelp = (arg: string) => arg === 'help' || arg === '--help' || arg === '-h';

/** The package and version; for the standalone executable also its platform and the Node inside. */
function versionLine(): string {
  const build = THIS_PACKAGE.version === '0.0.0' ? ' (a development build)' : '';
  const inside = THIS_PACKAGE.standalone ? `; the standalone provider executable for ${process.platform}/${process.arch}, Node ${process.versions.node} inside` : '';
  return `${THIS_PACKAGE.name} ${THIS_PACKAGE.version}${build}${inside}`;
}

/** An unknown command: said on its own line, with the command it most likely meant, then the usage; exit 2. */
function unknownCommand(name: string | undefined): number {
  const said = name === undefined ? 'a command is missing' : name.startsWith('-') ? `unknown option ${name}${didYouMean(meantFlags(name, ['version', 'help']))}` : unknownWord(name);
  process.stderr.write(`${THIS_PACKAGE.command}: ${said}\n${USAGE}\n${commandToRun('The commands', `${TOOL} help`).join('\n')}\n`);
  return 2;
}

function unknownWord(name: string): string {
  const meant = closestWord(name, Object.keys(COMMANDS));
  return `unknown command "${name}"${meant ? `; did you mean "${meant}"?` : ''}`;
}

/** `help [COMMAND [SUBCOMMAND]]`: the top-level help, or that command's. */
function printHelp(words: readonly string[]): number {
  const [name, ...rest] = words;
  if (name === undefined || isHelp(name)) {
    print(topHelp());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) return unknownCommand(name);
  print(helpOf(helpFor(command, rest), TOOL));
  return 0;
}

/** Entry point of the package's command (`cdktf-server-hosting`, or `cdktn-server-hosting`). */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === 'version') {
    print(versionLine());
    return 0;
  }
  if (name !== undefined && isHelp(name)) return printHelp(args);
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) return unknownCommand(name);
  // Before any parsing: `provider mirror --help` must never take --help for a directory.
  if (args.some((arg) => arg === '--help' || arg === '-h')) return printHelp(argv.filter((arg) => arg !== '--help' && arg !== '-h'));
  endWithLauncher();
  try {
    return await command.run(args);
  } catch (err) {
    process.stderr.write(`${THIS_PACKAGE.command}: ${(err as Error).message}\n`);
    if (!(err instanceof UsageError)) return 1;
    const help = helpFor(command, args);
    process.stderr.write(`${usageOf(help, TOOL)}\n${commandToRun('Its options and an example', `${TOOL} help ${help.words}`).join('\n')}\n`);
    return 2;
  }
}
