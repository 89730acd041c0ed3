import { HostingApiError } from '../../src/api/errors';
import { ADOPT_USAGE } from '../../src/cli/adopt-command';
import { main } from '../../src/cli/main';
import { runMirrorCommand, runProviderCommand } from '../../src/cli/provider-command';
import { explainApiError, type ReconcileContext } from '../../src/reconcile/context';
import type { ReconcileError } from '../../src/reconcile/reconcile-error';

describe('the cdktf-server-hosting command', () => {
  const written = { out: '', err: '' };
  beforeEach(() => {
    written.out = '';
    written.err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((text) => ((written.out += String(text)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((text) => ((written.err += String(text)), true));
  });
  afterEach(() => jest.restoreAllMocks());

  test.each(['help', '--help', '-h'])('%s prints the usage on stdout and exits 0', async (arg) => {
    expect(await main([arg])).toBe(0);
    expect(written.out).toMatch(/^usage: cdktf-server-hosting simulator \[--port N\] \[--host ADDRESS\] \[--allow-host NAME\]\.\.\. \[--account FILE\] \[--request-log N\] \[--still\] \[--exit-with-parent\]\n {7}cdktf-server-hosting simulator start \[--port N\] \[the flags of simulator\]\n {7}cdktf-server-hosting simulator status \[--port N\]\n {7}cdktf-server-hosting simulator stop \[--port N\] \[--keep-log\]\n {7}cdktf-server-hosting provider mirror <directory> \[--packed\] \[--standalone \[--platform OS_ARCH\]\.\.\.\] \[--source HOST\/NAMESPACE\/hosting\]\n {7}cdktf-server-hosting provider registry <directory> --host HOST --namespace NAMESPACE --signing-key FILE \[--platform OS_ARCH\]\.\.\.\n {7}cdktf-server-hosting adopt --language typescript\|python\|hcl \[--cdk cdktf\|cdktn\] \[--out FILE\] \[--token-env-var NAME\] \[--base-url URL\] \[--source ADDRESS\] \[--version CONSTRAINT\]\n {7}cdktf-server-hosting --version\n/);
    // As git and terraform: each command with what it does, then how to see its flags (issue 60 §2).
    expect(written.out.split('\n').slice(-8)).toEqual([
      'Commands:',
      '  simulator  Run the API simulator: in the foreground, or start, status and stop it in the background',
      '  provider   Write the Terraform provider as a filesystem mirror, or a registry folder with signed releases',
      '  adopt      Write a stack that adopts an account\'s servers as they are: the next plan imports them and shows no change',
      '  --version  Print the package and its version',
      '',
      '"cdktf-server-hosting COMMAND --help" lists a command\'s flags and what each does.',
      '',
    ]);
    expect(written.err).toBe('');
  });

  test.each(['--version', 'version'])('%s prints the package and its version', async (arg) => {
    expect(await main([arg])).toBe(0);
    expect(written.out).toBe('cdktf-server-hosting 0.0.0 (a development build)\n');
  });

  test.each([['provider', 'mirror', '--help'], ['adopt', '-h'], ['simulator', '--port', '1', '--help']])('%s … --help prints that command\'s usage and does nothing else', async (...argv) => {
    expect(await main(argv)).toBe(0);
    expect(written.out).toMatch(new RegExp(`^usage: cdktf-server-hosting ${argv[0]} `));
    expect(written.err).toBe('');
  });

  test('adopt --language py says the value is wrong', async () => {
    expect(await main(['adopt', '--language', 'py'])).toBe(1);
    expect(written.err).toBe('cdktf-server-hosting: --language "py" is not a language adopt writes: use typescript, python or hcl\n');
  });

  test.each([
    [['--language', 'typescript', '--cdk', 'cdk8s'], '--cdk "cdk8s" is not a CDK adopt writes for: use cdktf or cdktn (CDK Terrain)'],
    [['--language', 'python', '--source', 'registry.example.com/platform/hosting'], '--source and --version name the provider in an hcl configuration; a typescript or python program carries its provider: leave them out'],
    [['--language', 'hcl', '--source', 'registry.example.com/platform/aws'], '--source "registry.example.com/platform/aws" is not a provider address HOST/NAMESPACE/hosting'],
    [['--language', 'hcl', '--version', '"; evil'], '--version "\\"; evil" is not a version constraint, e.g. "~> 1.4"'],
    [['--language', 'hcl', '--base-url', 'ftp://x'], '--base-url "ftp://x" is not an http(s) URL'],
    [['--language', 'hcl', '--cdk', 'cdktn'], '--cdk chooses the imports of a typescript or python program; an hcl configuration has none: leave --cdk out'],
  ])('adopt %j is refused before anything is read', async (args, message) => {
    expect(await main(['adopt', ...args])).toBe(1);
    expect(written.err).toMatch(new RegExp(`^cdktf-server-hosting: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test.each([
    [['--language', 'python', '--cdk'], '--cdk needs a value (to give one that starts with -, write --cdk=VALUE)'],
    [['--language', 'python', '--cdk=cdktn', '--outt', 'x.py'], 'unknown option --outt; did you mean --out?'],
    [['--language', 'python', 'main.py'], 'unexpected argument "main.py"'],
  ])('adopt %j is a usage error: its own line, then the command\'s usage, exit 2', async (args, message) => {
    expect(await main(['adopt', ...args])).toBe(2);
    expect(written.err).toBe(`cdktf-server-hosting: ${message}\nusage: ${ADOPT_USAGE}\n`);
  });

  test('each command\'s --help describes its flags, --port 0 among them', async () => {
    expect(await main(['simulator', '--help'])).toBe(0);
    expect(written.out).toContain('--port N            the port to listen on (default 8787); 0 picks a free one');
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
    [['provider', 'mirorr', 'out'], 'unknown provider command "mirorr"; did you mean "mirror"?', 2],
  ])('%j is refused, naming the flag, and writes nothing', async (...argv) => {
    const [args, message, code] = argv as [string[], string, number];
    expect(await main(args)).toBe(code);
    const [said, ...rest] = written.err.split('\n');
    expect(said).toBe(`cdktf-server-hosting: ${message}`);
    // A usage error: the command's own usage on the lines after it, as git and terraform print it.
    if (code === 2) expect(rest[0]).toMatch(new RegExp(`^usage: cdktf-server-hosting ${args[0]} `));
  });

  test('an unknown command is a usage error on stderr, exit 2', async () => {
    expect(await main(['deploy'])).toBe(2);
    expect(written.err).toMatch(/^unknown command "deploy"\nusage: /);
    written.err = '';
    expect(await main(['simlator'])).toBe(2);
    expect(written.err).toMatch(/^unknown command "simlator"; did you mean "simulator"\?\nusage: /);
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
