import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standaloneExecutables } from '../../src/cli/standalone-executable';
import { defaultCacheDir } from '../../src/cli/user-cache';
import { readStandaloneProgram } from '../../src/contract/provider-mirror';
import { describeEnvironmentMatrix } from '../helpers/environment-matrix';

/** The standalone provider executable, run by hand as a command, in every environment of the matrix (issue 60 §3). */
const folder = mkdtempSync(join(tmpdir(), 'standalone-environments-'));
const executable = join(folder, 'terraform-provider-hosting');
beforeAll(() => {
  chmodSync(folder, 0o755);
  const built = standaloneExecutables(readStandaloneProgram(), ['linux_amd64'], { cacheDir: defaultCacheDir(), log: () => undefined });
  writeFileSync(executable, built.get('linux_amd64')!, { mode: 0o755 });
}, 300_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeEnvironmentMatrix({ name: 'the standalone executable', argv: () => [executable] });
