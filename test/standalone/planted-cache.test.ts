import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedExecutable, defaultCacheDir, executableNotices, standaloneExecutables } from '../../src/cli/standalone-executable';
import { readStandaloneProgram } from '../../src/contract/provider-mirror';

/*
 * Signed from a planted cache (issue 48 §5): the cache key of a built executable is computable from
 * the public package, so a file planted there was zipped and signed by `provider registry`. What
 * is signed is now built by the run that signs it (the build is reproducible) and compared with
 * the cache. Runs in the package step, beside suites that run the executables of the shared cache:
 * the plant goes into a cache of its own, which borrows the shared one's downloads (Node, postject).
 */
let cacheDir: string;
beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'planted-cache-'));
  const shared = resolve(defaultCacheDir());
  for (const name of readdirSync(shared).filter((entry) => entry !== 'standalone')) symlinkSync(join(shared, name), join(cacheDir, name));
});
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

test('a file planted where the executable is cached is not what a signing build uses; the run says so and the cache keeps the real one', () => {
  const lines: string[] = [];
  const build = { cacheDir, log: (line: string) => lines.push(line) };
  const program = readStandaloneProgram();
  const real = standaloneExecutables(program, ['linux_amd64'], build).get('linux_amd64')!;
  const file = cachedExecutable({ ...program, notices: executableNotices(build) }, 'linux_amd64', build);
  writeFileSync(file, 'planted', { mode: 0o755 });
  // A run that does not sign reads the cache as it is: that is what the signing build guards against.
  expect(standaloneExecutables(program, ['linux_amd64'], build).get('linux_amd64')!.toString()).toBe('planted');

  const signed = standaloneExecutables(program, ['linux_amd64'], { ...build, fresh: true }).get('linux_amd64')!;
  expect(signed.equals(real)).toBe(true);
  expect(lines.some((line) => line.startsWith(`the cached ${file} is not what this run builds (SHA-256 `) && line.endsWith('it is not used, and the cache now holds this run\'s build'))).toBe(true);
  expect(readFileSync(file).equals(real)).toBe(true);
});
