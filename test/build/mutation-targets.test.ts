import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mutateList, rangesOf } from '../../projenrc/mutation-targets';

const ROOT = join(__dirname, '..', '..');

/*
 * Mutation testing mutates what projenrc/mutation-targets.ts names by file and function (issue 59
 * §3): when a commit moves a function, the ranges stryker.config.json holds no longer match, and
 * this test says to run `npx projen` (which finds them again) before the score is trusted.
 */
test('stryker.config.json mutates the functions the targets name, at the lines they stand at now', () => {
  const written = (JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8')) as { mutate: string[] }).mutate;
  const now = mutateList(ROOT);
  if (JSON.stringify(written) !== JSON.stringify(now)) {
    throw new Error(`stryker.config.json mutates lines that no longer hold the functions projenrc/mutation-targets.ts names: run npx projen\nwritten: ${written.join(' ')}\nnow:     ${now.join(' ')}`);
  }
});

test('a function is found by its name whatever it is (a declaration, a const, an object member); a missing or doubled one is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-targets-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), [
      'export function decide(x: number) {', '  return x > 1;', '}',
      'const pick = (x: number) => x;',
      'interface Api { trusts(): boolean }',
      'export const api = {', '  trusts: () => true,', '};',
      'const twice = () => 1;', 'function inner() { const twice = () => 2; return twice; }',
    ].join('\n'));
    expect(rangesOf(dir, { file: 'src/a.ts', functions: ['decide', 'pick', 'trusts'] })).toEqual(['src/a.ts:1-3', 'src/a.ts:4-4', 'src/a.ts:7-7']);
    expect(rangesOf(dir, { file: 'src/a.ts' })).toEqual(['src/a.ts']);
    expect(() => rangesOf(dir, { file: 'src/a.ts', functions: ['gone'] })).toThrow('mutation target src/a.ts gone: no such function');
    expect(() => rangesOf(dir, { file: 'src/a.ts', functions: ['twice'] })).toThrow('mutation target src/a.ts twice: 2 functions of that name');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
