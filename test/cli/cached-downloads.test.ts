import { createHash } from 'node:crypto';
import { appendFileSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmNodeBinary, POSTJECT } from '../../src/cli/standalone-executable';

/*
 * Issue 41, point 2: a download is checked every time it is used, not only when fetched. postject's
 * api.js (1 MB from the npm registry) stands for every pinned download: the Node binaries take the
 * same path.
 */
const pinned = { ...POSTJECT, path: 'dist/api.js' };
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a pinned download in the cache', () => {
  let cache: string;
  let file: string;
  let lines: string[];
  const use = () => npmNodeBinary(pinned, file, (line) => lines.push(line));
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'hosting-cache-'));
    file = join(cache, 'postject', 'api.js');
    lines = [];
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  test('is fetched once, then used as it is while it is the pinned file', () => {
    expect(use()).toBe(file);
    expect(lines).toEqual([`fetching postject@${POSTJECT.release} from the npm registry (about 50 MB, once)`]);
    expect(sha256(file)).toBe(POSTJECT.sha256);
    lines = [];
    use();
    expect(lines).toEqual([]);
  }, 120_000);

  test('one line appended to it (the issue\'s reproduction) is found on the next use: removed, fetched again, said so', () => {
    use();
    appendFileSync(file, 'require("child_process").execSync("touch /tmp/owned");\n');
    lines = [];
    use();
    expect(lines[0]).toMatch(new RegExp(`^the cached ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not postject@${POSTJECT.release.replace(/\./g, '\\.')}'s dist/api\\.js \\(SHA-256 [0-9a-f]{64}, expected ${POSTJECT.sha256}\\): removing it and fetching it again$`));
    expect(sha256(file)).toBe(POSTJECT.sha256);
  }, 120_000);

  test('a link planted in its place is replaced, and what it pointed at is left untouched', () => {
    const victim = join(cache, 'victim');
    writeFileSync(victim, 'not yours');
    use();
    rmSync(file);
    symlinkSync(victim, file);
    use();
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('not yours');
    expect(sha256(file)).toBe(POSTJECT.sha256);
  }, 120_000);

  test('a file whose hash is not the pinned one is refused, never cached', () => {
    expect(() => npmNodeBinary({ ...pinned, sha256: '0'.repeat(64) }, file, () => undefined)).toThrow(
      `dist/api.js in postject@${POSTJECT.release} is not the file this package pins (SHA-256 ${POSTJECT.sha256}, expected ${'0'.repeat(64)}); refusing to use it`);
    expect(() => lstatSync(file)).toThrow();
  }, 120_000);
});
