import { HostingApiError } from '../../src/api/errors';
import { ADOPT_HELP, parseAdoptArgs } from '../../src/cli/adopt-command';
import { usageOf } from '../../src/cli/command-help';
import { main } from '../../src/cli/main';
import { parseProviderArgs, runMirrorCommand, runProviderCommand } from '../../src/cli/provider-command';
import { checkSimulatorArgs } from '../../src/cli/simulator-lifecycle';
import { explainApiError, type ReconcileContext } from '../../src/reconcile/context';
import type { ReconcileError } from '../../src/reconcile/reconcile-error';

const allCommands = () => ['simulator', 'simulator start', 'simulator status', 'simulator stop', 'provider', 'provider mirror', 'provider registry', 'adopt'];

/** Whether the command's parser takes `args` (the tool's arguments), without running it. */
function checkCommandLine([command, ...args]: string[]): void {
  if (command === 'simulator') checkSimulatorArgs(args);
  else if (command === 'provider') parseProviderArgs(args.slice(1));
  else parseAdoptArgs(args);
}

describe('the cdktf-server-hosting command', () => {
  const written = { out: '', err: '' };
  beforeEach(() => {
    written.out = '';
    written.err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => ((written.out += String(text)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((text) => ((written.err += String(text)), true));
  });
  afterEach(() => jest.restoreAllMocks());

  test.each([['help'], ['--help'], ['-h'], ['help', 'help']])('%j prints each command and what it does on stdout, exits 0', async (...argv) => {
    expect(await main(argv)).toBe(0);
    // As git and terraform: the usage, each command with what it does, then how to see its options.
    expect(written.out).toBe([
      'usage: cdktf-server-hosting COMMAND [OPTIONS]',
      '       cdktf-server-hosting --version',
      '',
      'Commands:',
      '  simulator          Run the API simulator in the foreground',
      '  simulator start    Start the simulator in the background',
      '  simulator status   Say whether the simulators started here answer',
      '  simulator stop     Stop the simulators started here',
      '  provider mirror    Write the provider as a filesystem mirror',
      '  provider registry  Write this version into a signed provider registry',
      '  adopt              Write a stack that adopts an account\'s servers as they are',
      '',
      'A command\'s options and an example (or COMMAND --help):',
      '  cdktf-server-hosting help COMMAND',
      '',
    ].join('\n'));
    expect(written.err).toBe('');
  });

  test.each(['--version', 'version'])('%s prints the package and its version', async (arg) => {
    expect(await main([arg])).toBe(0);
    expect(written.out).toBe('cdktf-server-hosting 0.0.0 (a development build)\n');
  });

  test.each([
    [['provider', 'mirror', '--help'], 'provider mirror'],
    [['adopt', '-h'], 'adopt'],
    [['simulator', '--port', '1', '--help'], 'simulator'],
    [['simulator', 'start', '--help'], 'simulator start'],
    [['help', 'simulator', 'stop'], 'simulator stop'],
    [['help', 'adopt'], 'adopt'],
    [['provider', '-h'], 'provider'],
  ])('%j prints the help of %s alone, and does nothing else', async (argv, words) => {
    expect(await main(argv)).toBe(0);
    expect(written.out).toMatch(new RegExp(`^usage: cdktf-server-hosting ${words} `));
    expect(written.out).toMatch(new RegExp(`\nExamples?:\n(.*\n)*  cdktf-server-hosting ${words} `));
    expect(written.err).toBe('');
  });

  test('every line of every help fits 80 columns', async () => {
    for (const argv of [['help'], ...allCommands().map((words) => ['help', ...words.split(' ')])]) {
      written.out = '';
      expect(await main(argv)).toBe(0);
      expect(written.out.split('\n').filter((line) => line.length > 80)).toEqual([]);
    }
  });

  test('every example of every help is a command line its command takes', async () => {
    for (const words of allCommands()) {
      written.out = '';
      await main(['help', ...words.split(' ')]);
      const examples = written.out.split(/\nExamples?:\n/)[1].replace(/ \\\n +/g, ' ').split('\n').filter((line) => line.startsWith('  cdktf-server-hosting '));
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(() => checkCommandLine(example.trim().split(' ').slice(1))).not.toThrow();
    }
  });

  test('adopt --language py says the value is wrong: a usage error', async () => {
    expect(await main(['adopt', '--language', 'py'])).toBe(2);
    expect(written.err.split('\n')[0]).toBe('cdktf-server-hosting: --language "py" is not a language adopt writes: use typescript, python or hcl');
  });

  test.each([
    [['--language', 'typescript', '--cdk', 'cdk8s'], '--cdk "cdk8s" is not a CDK adopt writes for: use cdktf or cdktn (CDK Terrain)'],
    [['--language', 'python', '--source', 'registry.example.com/platform/hosting'], '--source and --version name the provider in an hcl configuration; a typescript or python program carries its provider: leave them out'],
    [['--language', 'hcl', '--source', 'registry.example.com/platform/aws'], '--source "registry.example.com/platform/aws" is not a provider address HOST/NAMESPACE/hosting'],
    [['--language', 'hcl', '--version', '"; evil'], '--version "\\"; evil" is not a version constraint, e.g. "~> 1.4"'],
    [['--language', 'hcl', '--base-url', 'ftp://x'], '--base-url "ftp://x" is not an http(s) URL'],
    [['--language', 'hcl', '--cdk', 'cdktn'], '--cdk chooses the imports of a typescript or python program; an hcl configuration has none: leave --cdk out'],
  ])('adopt %j is refused before anything is read, a usage error', async (args, message) => {
    expect(await main(['adopt', ...args])).toBe(2);
    expect(written.err).toMatch(new RegExp(`^cdktf-server-hosting: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test.each([
    [['--language', 'python', '--cdk'], '--cdk needs a value (to give one that starts with -, write --cdk=VALUE)'],
    [['--language', 'python', '--cdk=cdktn', '--outt', 'x.py'], 'unknown option --outt; did you mean --out?'],
    [['--language', 'python', 'main.py'], 'unexpected argument "main.py"'],
  ])('adopt %j is a usage error: its own line, then the command\'s usage, exit 2', async (args, message) => {
    expect(await main(['adopt', ...args])).toBe(2);
    expect(written.err).toBe(`cdktf-server-hosting: ${message}\n${usageOf(ADOPT_HELP, 'cdktf-server-hosting')}\nIts options and an example:\n  cdktf-server-hosting help adopt\n`);
  });

  test('each command\'s --help describes its flags, --port 0 among them', async () => {
    expect(await main(['simulator', '--help'])).toBe(0);
    expect(written.out).toContain('  --port N              the port to listen on (default 8787); 0 picks a free\n');
    expect(await main(['provider', 'registry', '--help'])).toBe(0);
    expect(written.out).toContain('--signing-key FILE');
    expect(await main(['adopt', '--help'])).toBe(0);
    expect(written.out).toContain('--token-env-var NAME');
  });

  test.each([
    [['provider', 'mirror', '--packd'], 'unknown option --packd; did you mean --packed?', 2],
    [['provider', 'mirror', 'out', '--standalone', '--platfrom', 'linux_amd64'], 'unknown option --platfrom; did you mean --platform?', 2],
    [['provider', 'mirror', 'one', 'two'], 'unexpected argument "two"', 2],
    [['provider', 'mirror'], 'the directory to write is missing', 2],
    [['provider', 'mirror', 'out', '--packed=no'], '--packed takes no value', 2],
    [['simulator', '--hots', '0.0.0.0'], 'unknown option --hots; did you mean --host?', 2],
    [['simulator', 'stats', '--port', '8787'], 'unexpected argument "stats"; did you mean "status"?', 2],
    [['simulator', 'strat'], 'unexpected argument "strat"; did you mean "start"?', 2],
    [['simulator', '--bogus'], 'unknown option --bogus', 2],
    [['simulator', '--port', 'abc'], '--port "abc" is not a port: a number from 0 (any free port) to 65535', 2],
    [['simulator', 'stop', '--port', '99999'], '--port "99999" is not a port: a number from 1 to 65535', 2],
    [['simulator', 'status', '--port', '0'], '--port "0" is not a port: a number from 1 to 65535', 2],
    [['simulator', 'start', '--exit-with-parent'], '--exit-with-parent is for the simulator in the foreground; "simulator start" keeps it running until "simulator stop"', 2],
    [['provider', 'mirror', 'out', '--source', 'example.com/x/aws'], '--source "example.com/x/aws" is not a provider address HOST/NAMESPACE/hosting (e.g. registry.example.com/platform/hosting); the type stays "hosting", which every resource name starts with', 2],
    [['provider', 'mirorr', 'out'], 'unknown provider command "mirorr"; did you mean "mirror"?', 2],
    // Issue 75 §3: a flag's beginning is suggested, as git does, and so is a near one.
    [['adopt', '--lang', 'hcl'], 'unknown option --lang; did you mean --language?', 2],
    [['simulator', '--requests-per-minute', '0'], '--requests-per-minute "0" is not a count per minute: a whole number from 1 to 100,000', 2],
    [['simulator', '--actions-per-minute', '1e3'], '--actions-per-minute "1e3" is not a count per minute: a whole number from 1 to 100,000', 2],
    [['adopt', '--language', 'hcl', '--verison', '1.0'], 'unknown option --verison; did you mean --version?', 2],
    [['provider', 'mirror', 'out', '--pl', 'linux_amd64'], 'unknown option --pl; did you mean --platform?', 2],
  ])('%j is refused, naming the flag, and writes nothing', async (...argv) => {
    const [args, message, code] = argv as [string[], string, number];
    expect(await main(args)).toBe(code);
    const [said, ...rest] = written.err.split('\n');
    expect(said).toBe(`cdktf-server-hosting: ${message}`);
    // A usage error: the command's own usage on the lines after it, as git and terraform print it.
    if (code === 2) expect(rest[0]).toMatch(new RegExp(`^usage: cdktf-server-hosting ${args[0]} `));
    if (code === 2) expect(rest.filter(Boolean).slice(-2)).toEqual(['Its options and an example:', expect.stringMatching(new RegExp(`^  cdktf-server-hosting help ${args[0]}( \\w+)?$`))]);
  });

  test('a mistyped option of the tool itself is said with the one meant', async () => {
    expect(await main(['--verison'])).toBe(2);
    expect(written.err.split('\n')[0]).toBe('cdktf-server-hosting: unknown option --verison; did you mean --version?');
  });

  test('an unknown command is a usage error on stderr, exit 2', async () => {
    expect(await main(['deploy'])).toBe(2);
    expect(written.err).toBe('cdktf-server-hosting: unknown command "deploy"\nusage: cdktf-server-hosting COMMAND [OPTIONS]\n       cdktf-server-hosting --version\nThe commands:\n  cdktf-server-hosting help\n');
    written.err = '';
    expect(await main(['simlator'])).toBe(2);
    expect(written.err).toMatch(/^cdktf-server-hosting: unknown command "simlator"; did you mean "simulator"\?\nusage: /);
    written.err = '';
    expect(await main(['help', 'adpot'])).toBe(2);
    expect(written.err).toMatch(/^cdktf-server-hosting: unknown command "adpot"; did you mean "adopt"\?\n/);
  });
});

test('a hint after a passing failure names what the person was running: adopt, not the apply', async () => {
  const refused = new HostingApiError({ status: 0, code: 'network_error', detail: 'connection to 127.0.0.1:9 failed (ECONNREFUSED)', method: 'GET', path: '/servers' });
  const ctx = { tokenEnvVar: 'HOSTING_API_TOKEN', rerun: 'cdktf-server-hosting adopt' } as ReconcileContext;
  const err = await explainApiError(ctx, 'reading the server list', refused, []).catch((e: ReconcileError) => e.describe().join('\n'));
  expect(err).toContain('127.0.0.1:9');
  expect(err).toContain('then run cdktf-server-hosting adopt again');
  expect(err).not.toMatch(/\bapply\b/);
});

test('provider mirror refuses --platform without --standalone, and a platform it is not built for, saying which it is', () => {
  expect(() => runMirrorCommand(['/tmp/unused', '--platform', 'linux_amd64'], () => undefined)).toThrow('--platform selects the platforms of --standalone; the script provider is written for every platform, as node runs it on each');
  expect(() => runMirrorCommand(['/tmp/unused', '--standalone', '--platform=freebsd_amd64'], () => undefined))
    .toThrow('--platform "freebsd_amd64" is not one the provider is built for: use linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64, windows_arm64');
});

test('provider registry says what is missing or wrong before it builds anything', async () => {
  const registry = (args: string[]) => runProviderCommand(['registry', '/tmp/unused-registry', ...args], () => undefined);
  await expect(registry(['--namespace', 'platform', '--signing-key', 'k.asc'])).rejects.toThrow('--host "" is not a registry host: the host name (and port, if not 443) users write before /NAMESPACE/hosting, e.g. registry.example.com or localhost:8443');
  await expect(registry(['--host', 'registry.example.com', '--namespace', 'Plat_form', '--signing-key', 'k.asc'])).rejects.toThrow('--namespace "Plat_form" is not a namespace');
  await expect(registry(['--host', 'registry.example.com', '--namespace', 'platform'])).rejects.toThrow('--signing-key FILE is required: Terraform installs nothing from a registry that is not signed');
  await expect(registry(['--host', 'registry.example.com', '--namespace', 'platform', '--signing-key', '/nonexistent/k.asc'])).rejects.toThrow('--signing-key /nonexistent/k.asc cannot be read (ENOENT)');
  await expect(registry(['--packed', '--host', 'registry.example.com'])).rejects.toThrow('--packed, --standalone and --source belong to "provider mirror"');
  expect(() => runMirrorCommand(['/tmp/unused', '--host', 'registry.example.com'], () => undefined)).toThrow('--host, --namespace and --signing-key belong to "provider registry"');
});
