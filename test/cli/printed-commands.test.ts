import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandsIn } from '../helpers/printed-commands';

/*
 * Issue 75 §2: every command line the package prints runs when pasted into a shell, from the way the
 * user ran the package: its command on PATH, or through npx in an npm project (where it is on no
 * shell's PATH). The standalone executable's and the wheel's are run in their suites
 * (test/standalone, test/python), from their builds.
 */
const ROOT = join(__dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'printed-commands-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `script` in bash, as a user's terminal would, with the package's environment for it. */
const shell = (script: string, cwd: string, env: Record<string, string>) =>
  spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

/** A folder where the command is `cdktf-server-hosting` on PATH, as an installed package's bin is. */
function onPath() {
  const dir = join(work, 'on-path');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin', 'cdktf-server-hosting'), join(dir, 'bin', 'cdktf-server-hosting'));
  return { cwd: dir, typed: 'cdktf-server-hosting', env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` } };
}

/** An npm project with the package installed (linked): npx finds its bin in node_modules/.bin, offline. */
function throughNpx() {
  const dir = join(work, 'npm-project');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-stack', private: true, dependencies: { 'cdktf-server-hosting': '*' } }));
  symlinkSync(ROOT, join(dir, 'node_modules', 'cdktf-server-hosting'));
  symlinkSync('../cdktf-server-hosting/bin/cdktf-server-hosting', join(dir, 'node_modules', '.bin', 'cdktf-server-hosting'));
  return { cwd: dir, typed: 'npx --offline cdktf-server-hosting', env: { npm_config_update_notifier: 'false' } };
}

describe.each([['its command on PATH', onPath, 'cdktf-server-hosting'], ['npx in an npm project', throughNpx, 'npx cdktf-server-hosting']])('run as %s', (_way, setUp, printedAs) => {
  const way = setUp();
  const env = { ...way.env, CDKTF_SERVER_HOSTING_STATE_DIR: mkdtempSync(join(work, 'state-')) };
  const run = (script: string) => shell(script, way.cwd, env);

  test('simulator start prints the commands to use, query and stop it; each runs pasted, as printed', () => {
    const started = run(`${way.typed} simulator start --port 0 --still`);
    expect(started.status).toBe(0);
    const [useIt, status, stop] = commandsIn(started.stdout);
    expect(useIt).toMatch(/^export HOSTING_API_URL=http:\/\/127\.0\.0\.1:\d+\/api\/v1 HOSTING_API_TOKEN=hsim_full_\w+$/);
    expect([status, stop]).toEqual([expect.stringMatching(new RegExp(`^${printedAs} simulator status --port \\d+$`)), expect.stringMatching(new RegExp(`^${printedAs} simulator stop --port \\d+$`))]);
    const answers = run(`${useIt}\nnode -e 'fetch(process.env.HOSTING_API_URL + "/servers", { headers: { authorization: "Bearer " + process.env.HOSTING_API_TOKEN } }).then((r) => process.exit(r.status === 200 ? 0 : 1))'`);
    expect(answers.status).toBe(0);
    expect(run(status).status).toBe(0);
    expect(run(stop)).toMatchObject({ status: 0, stdout: expect.stringContaining('stopped the simulator') });
  }, 90_000);

  test('help, an unknown command and a usage error each end in a command that runs pasted', () => {
    const said = [run(`${way.typed} help`).stdout, run(`${way.typed} simulater`).stderr, run(`${way.typed} simulator start --prot 1`).stderr];
    const commands = said.flatMap(commandsIn);
    expect(commands).toEqual([`${printedAs} help COMMAND`, `${printedAs} help`, `${printedAs} help simulator start`]);
    for (const command of commands) expect(run(command.replace('COMMAND', 'adopt')).status).toBe(0);
  }, 60_000);
});
