import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

const files = sourceFiles(SRC).map((f) => ({ file: relative(SRC, f), imports: importsOf(f) }));

test('only the transport module imports undici', () => {
  expect(files.filter((f) => f.imports.includes('undici')).map((f) => f.file)).toEqual(['api/transport.ts']);
});

test('the simulator shares only spec-level modules of the API layer', () => {
  const offending = files
    .filter((f) => f.file.startsWith('simulator/'))
    .flatMap((f) => f.imports.filter((i) => i.startsWith('..') && !['../api/schemas', '../api/errors'].includes(i)).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

test('layers only reach down: api imports no other layer', () => {
  const up = files
    .filter((f) => f.file.startsWith('api/'))
    .flatMap((f) => f.imports.filter((i) => i.startsWith('..')).map((i) => `${f.file} -> ${i}`));
  expect(up).toEqual([]);
});
