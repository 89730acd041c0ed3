import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { parse } from 'yaml';

// The package's types describe its ES module; the CommonJS build it also ships has the same API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;

/*
 * The release job's scripts, offline: the Node binary check fails closed when any platform's binary
 * differs, and the signing step (the only one that sees the key) writes a signature gpg and
 * OpenPGP.js (as Terraform's go-crypto) accept.
 */

const SCRIPTS = join(__dirname, '..', '..', 'scripts', 'ci');
const RELEASE = '22.99.0';
const PLATFORMS = readFileSync(join(SCRIPTS, 'node-binaries.list'), 'utf8').trim().split('\n').map((line) => line.split(' '));
const hasGpg = spawnSync('gpg', ['--version']).status === 0;
if (!hasGpg && process.env.CI === 'true') throw new Error('gpg is needed for the release job\'s tests (apt-get install gnupg)');
const withGpg = hasGpg ? describe : describe.skip;

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'release-job-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd: string, args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, input });

/**
 * Node's release files, their SHASUMS256.txt and npm's tarballs, whose binaries hold these bytes:
 * a tarball with `bin/node`, or for Windows `<official>/node.exe` itself, as Node publishes them.
 */
function nodeReleaseFiles(npmBinary: (platform: string) => string) {
  const sums: string[] = [];
  for (const [platform, official, npmPackage] of PLATFORMS) {
    const tree = join(work, 'tree', platform);
    const binary = official.startsWith('win-') ? 'node.exe' : 'node';
    mkdirSync(join(tree, 'package', 'bin'), { recursive: true });
    writeFileSync(join(tree, 'package', 'bin', binary), npmBinary(platform));
    expect(run('tar', ['-czf', join(work, `${npmPackage}-${RELEASE}.tgz`), '-C', tree, 'package']).status).toBe(0);
    const file = binary === 'node.exe' ? `${official}/node.exe` : `node-v${RELEASE}-${official}.tar.gz`;
    if (binary === 'node.exe') {
      mkdirSync(join(work, official));
      writeFileSync(join(work, file), `node ${official}\n`);
    } else {
      mkdirSync(join(tree, `node-v${RELEASE}-${official}`, 'bin'), { recursive: true });
      writeFileSync(join(tree, `node-v${RELEASE}-${official}`, 'bin', 'node'), `node ${official}\n`);
      expect(run('tar', ['-czf', join(work, file), '-C', tree, `node-v${RELEASE}-${official}`]).status).toBe(0);
    }
    sums.push(`${createHash('sha256').update(readFileSync(join(work, file))).digest('hex')}  ${file}`);
  }
  writeFileSync(join(work, 'SHASUMS256.txt'), `${sums.join('\n')}\n`);
}

describe('the Node binary check (compare-node-binaries.sh)', () => {
  const officialBytes = (platform: string) => `node ${PLATFORMS.find(([p]) => p === platform)![1]}\n`;
  const compare = () => run('bash', [join(SCRIPTS, 'compare-node-binaries.sh'), work, RELEASE]);

  test('passes when every platform\'s npm binary is Node\'s own', () => {
    nodeReleaseFiles(officialBytes);
    const result = compare();
    expect(result.stdout.trim().split('\n')).toHaveLength(PLATFORMS.length);
    expect(PLATFORMS.map(([platform]) => platform)).toContain('windows_arm64');
    expect(result.status).toBe(0);
  });

  test.each(PLATFORMS.map(([platform]) => platform))('fails when only %s differs, naming it', (odd) => {
    nodeReleaseFiles((platform) => (platform === odd ? 'a different binary\n' : officialBytes(platform)));
    const result = compare();
    expect(result.stderr).toContain(`${odd}: `);
    expect(result.stderr).toContain(`refusing to build on these Node binaries: ${odd}`);
    expect(result.status).toBe(1);
  });

  test('fails when a tarball is not the one SHASUMS256.txt lists', () => {
    nodeReleaseFiles(officialBytes);
    writeFileSync(join(work, 'SHASUMS256.txt'), readFileSync(join(work, 'SHASUMS256.txt'), 'utf8').replace(/^[0-9a-f]{64}/, '0'.repeat(64)));
    const result = compare();
    expect(result.stderr).toContain(`linux_amd64: node-v${RELEASE}-linux-x64.tar.gz is missing from SHASUMS256.txt or its hash differs`);
    expect(result.status).toBe(1);
  });

  test('fails when a Windows node.exe is not the one SHASUMS256.txt lists', () => {
    nodeReleaseFiles(officialBytes);
    writeFileSync(join(work, 'win-x64', 'node.exe'), 'a changed download\n');
    const result = compare();
    expect(result.stderr).toContain('windows_amd64: win-x64/node.exe is missing from SHASUMS256.txt or its hash differs');
    expect(result.status).toBe(1);
  });
});

withGpg('the signing step (sign-provider-release.sh)', () => {
  const SUMS = 'terraform-provider-hosting_1.4.2_SHA256SUMS';
  /** The signing step, run where the workflow runs it: in the released checkout (here, `work`). */
  const sign = (env: Record<string, string>) => spawnSync('bash', [join(SCRIPTS, 'sign-provider-release.sh'), join(work, 'dist')], {
    cwd: work, encoding: 'utf8', env: { ...process.env, HOSTING_RELEASE_SIGNING_KEY: '', HOSTING_RELEASE_SIGNING_PASSPHRASE: '', ...env },
  });
  /** The checkout's SECURITY.md naming `fingerprint`, and its package.json naming `repository`. */
  const checkout = (fingerprint: string, repository = 'https://github.com/platform-team/cdktf-server-hosting.git') => {
    writeFileSync(join(work, 'SECURITY.md'), `# Security\n\nRelease key fingerprint: \`${fingerprint}\`\n`);
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'cdktf-server-hosting', repository: { type: 'git', url: repository } }, null, 2));
  };

  /** A signing key made for the test in a keyring of its own, exported ASCII-armoured. */
  function signingKey(passphrase: string): { armored: string; publicKey: string; fingerprint: string } {
    const home = join(work, 'keyring');
    mkdirSync(home, { mode: 0o700 });
    const gpg = (...args: string[]) => run('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', passphrase, ...args]);
    expect(gpg('--quick-gen-key', 'Release test <release@example.com>', 'ed25519', 'sign', 'never').status).toBe(0);
    const armored = gpg('--armor', '--export-secret-keys').stdout;
    const publicKey = gpg('--armor', '--export').stdout;
    const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg('--with-colons', '--list-keys').stdout)![1];
    run('gpgconf', ['--homedir', home, '--kill', 'all']);
    return { armored, publicKey, fingerprint };
  }

  const ZIP = 'terraform-provider-hosting_1.4.2_linux_amd64.zip';
  beforeEach(() => {
    mkdirSync(join(work, 'dist'));
    writeFileSync(join(work, 'dist', ZIP), 'the archive');
    writeFileSync(join(work, 'dist', SUMS), `${createHash('sha256').update('the archive').digest('hex')}  ${ZIP}\n`);
  });

  test.each<[string, () => void, string]>([
    ['an archive changed after SHA256SUMS was written', () => writeFileSync(join(work, 'dist', ZIP), 'another archive'), 'do not match'],
    ['an archive SHA256SUMS does not list', () => writeFileSync(join(work, 'dist', 'terraform-provider-hosting_1.4.2_linux_arm64.zip'), 'planted'), 'terraform-provider-hosting_1.4.2_linux_arm64.zip is not in'],
    ['a listed archive missing', () => rmSync(join(work, 'dist', ZIP)), 'do not match'],
  ])('signs nothing when %s (checked before the key is read)', (_name, change, message) => {
    change();
    const result = sign({ HOSTING_RELEASE_SIGNING_KEY: 'not read' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('nothing was signed');
    expect(existsSync(join(work, 'dist', `${SUMS}.sig`))).toBe(false);
  });

  test('writes the detached signature gpg and OpenPGP.js verify, and prints the key ID only', async () => {
    const key = signingKey('correct horse');
    checkout(key.fingerprint);
    const result = sign({ HOSTING_RELEASE_SIGNING_KEY: key.armored, HOSTING_RELEASE_SIGNING_PASSPHRASE: 'correct horse' });
    expect(result.stderr).toBe('');
    const printed = new RegExp(`^signed ${SUMS} with key ID ([0-9A-F]{16}) \\(fingerprint ([0-9A-F]{40})\\); the release notes' key section is in ${join(work, 'release-key.md')}\\n$`).exec(result.stdout);
    expect(printed).not.toBeNull();
    expect(result.status).toBe(0);
    // Issue 41, point 5: the release notes name the key, so init's "key ID …" has something to be checked against.
    const [, keyId, fingerprint] = printed!;
    expect(fingerprint.endsWith(keyId)).toBe(true);
    const notes = readFileSync(join(work, 'release-key.md'), 'utf8');
    expect(notes).toContain(`Release key fingerprint: \`${fingerprint}\``);
    expect(notes).toContain(`its key ID, the fingerprint's last 16 digits: \`${keyId}\``);
    expect((await openpgp.readKey({ armoredKey: /```text\n([\s\S]+?)```/.exec(notes)![1] })).getFingerprint().toUpperCase()).toBe(fingerprint);
    const verified = await openpgp.verify({
      message: await openpgp.createMessage({ binary: readFileSync(join(work, 'dist', SUMS)) }),
      signature: await openpgp.readSignature({ binarySignature: readFileSync(join(work, 'dist', `${SUMS}.sig`)) }),
      verificationKeys: await openpgp.readKey({ armoredKey: key.publicKey }),
      expectSigned: true,
    });
    await expect(verified.signatures[0].verified).resolves.toBe(true);
  });

  test.each<[string, () => Record<string, string>, string]>([
    ['no key', () => ({}), 'HOSTING_RELEASE_SIGNING_KEY is not set; a release is signed'],
    ['not a key', () => ({ HOSTING_RELEASE_SIGNING_KEY: 'hunter2' }), 'does not hold an ASCII-armoured OpenPGP private key'],
  ])('refuses with %s, writing no signature and no secret', (_name, env, message) => {
    const result = sign(env());
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.status).toBe(1);
    expect(spawnSync('test', ['-e', join(work, 'dist', `${SUMS}.sig`)]).status).toBe(1);
  });

  // Issue 55 §4: SECURITY.md said no fingerprint was published; a release now cannot be signed unless it names the key.
  test.each<[string, (fingerprint: string) => void, string]>([
    ['SECURITY.md names no key', () => checkout('not published yet'), 'SECURITY.md does not name this key'],
    ['SECURITY.md names another key', () => checkout('0123456789ABCDEF0123456789ABCDEF01234567'), 'SECURITY.md does not name this key'],
    ['package.json names a placeholder repository', (fingerprint) => checkout(fingerprint, 'https://example.com/cdktf-server-hosting.git'), 'package.json names no real repository'],
  ])('signs nothing when %s', (_name, prepare, message) => {
    const key = signingKey('correct horse');
    prepare(key.fingerprint);
    const result = sign({ HOSTING_RELEASE_SIGNING_KEY: key.armored, HOSTING_RELEASE_SIGNING_PASSPHRASE: 'correct horse' });
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('nothing was signed');
    expect(result.status).toBe(1);
    expect(existsSync(join(work, 'dist', `${SUMS}.sig`))).toBe(false);
  });

  test('refuses a wrong passphrase without printing it', () => {
    const key = signingKey('correct horse');
    checkout(key.fingerprint);
    const result = sign({ HOSTING_RELEASE_SIGNING_KEY: key.armored, HOSTING_RELEASE_SIGNING_PASSPHRASE: 'battery staple' });
    expect(result.stderr).toContain('signing failed: is HOSTING_RELEASE_SIGNING_PASSPHRASE the key\'s passphrase?');
    expect(result.stderr).not.toContain('battery staple');
    expect(result.status).toBe(1);
  });
});

describe('the release workflow', () => {
  interface Step { readonly name?: string; readonly run?: string; readonly env?: Record<string, string> }
  interface Job { readonly if?: string; readonly environment?: string; readonly env?: Record<string, string>; readonly steps: Step[] }
  const workflow = parse(readFileSync(join(__dirname, '..', '..', '.github', 'workflows', 'release.yml'), 'utf8')) as { jobs: Record<string, Job>; concurrency?: unknown };

  test('every job releases from main only: a dispatch on another branch builds, signs and publishes nothing', () => {
    for (const [name, job] of Object.entries(workflow.jobs)) expect([name, job.if]).toEqual([name, expect.stringMatching(/^github\.ref == 'refs\/heads\/main'/)]);
  });

  test('the GitHub release\'s notes end with the signing job\'s key section (fingerprint and public key)', () => {
    const create = workflow.jobs.github.steps.find((step) => step.name === 'Create the release') as { run?: string } | undefined;
    expect(create?.run).toContain('cat dist/changelog.md dist/release-key.md > dist/release-notes.md');
    expect(create?.run).toContain('--notes-file dist/release-notes.md');
  });

  test('the signing key reaches one step, the signing, in a job of its own in a protected environment', () => {
    const holders = Object.entries(workflow.jobs).flatMap(([name, job]) => [
      ...(JSON.stringify(job.env ?? {}).includes('SIGNING') ? [`${name} (job)`] : []),
      ...job.steps.filter((step) => JSON.stringify(step).includes('secrets.HOSTING_RELEASE_SIGNING')).map((step) => `${name}: ${step.name}`),
    ]);
    expect(holders).toEqual(['sign: Sign SHA256SUMS']);
    expect(workflow.jobs.sign.environment).toBe('release-signing');
    expect(workflow.jobs.sign.steps.find((s) => s.name === 'Sign SHA256SUMS')?.run).toBe('scripts/ci/sign-provider-release.sh dist/provider');
    // Two quick pushes to main queue their releases rather than run them at once.
    expect(workflow.concurrency).toEqual({ 'group': 'release', 'cancel-in-progress': false });
    expect(workflow.jobs.sign.steps.map((s) => s.run ?? '').join('\n')).not.toMatch(/npm|pip|apt-get|projen/);
  });
});
