import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SRC = join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Module specifiers of import and export statements and of require() and import() calls; not words in strings. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statements = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ].map((m) => m[1]);
  const calls = [...text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
  return [...statements, ...calls];
}

const files = sourceFiles(SRC).map((f) => ({ file: relative(SRC, f), imports: importsOf(f) }));

test('only the transport module imports undici', () => {
  expect(files.filter((f) => f.imports.includes('undici')).map((f) => f.file)).toEqual(['api/transport.ts']);
});

test('the simulator shares only spec-level modules of the API layer', () => {
  const offending = files
    .filter((f) => f.file.startsWith('simulator/'))
    .flatMap((f) => f.imports.filter((i) => i.startsWith('..') && !['../api/schemas', '../api/errors', '../contract/patterns'].includes(i)).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

test('layers only reach down: api imports nothing above it (contract is the shared leaf)', () => {
  const up = files
    .filter((f) => f.file.startsWith('api/'))
    .flatMap((f) => f.imports.filter((i) => i.startsWith('..') && !i.startsWith('../contract/')).map((i) => `${f.file} -> ${i}`));
  expect(up).toEqual([]);
});

test('constructs do no I/O and load no runtime dependency: they import only cdktf, constructs, the provider and the contract', () => {
  const allowed = (i: string) => ['cdktf', 'cdktf/lib/synthesize/synthesizer', 'constructs', 'node:path', 'node:fs', 'node:crypto'].includes(i)
    || i.startsWith('../contract/') || i.startsWith('./');
  const offending = files.filter((f) => f.file.startsWith('constructs/')).flatMap((f) => f.imports.filter((i) => !allowed(i)).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

test('the provider layer reaches down only: reconcile, api and contract, never the constructs or the handler', () => {
  const offending = files
    .filter((f) => f.file.startsWith('provider/'))
    .flatMap((f) => f.imports.filter((i) => /(^|\/)(constructs|handler|simulator|cli)\//.test(i)).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

test('the testing kit starts the simulator through the command line, and imports nothing of the CLI', () => {
  const offending = files.filter((f) => f.file.startsWith('testing/')).flatMap((f) => f.imports.filter((i) => i.startsWith('../cli/')).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

test('the provider keeps each kind family in a folder of its own, with its RPCs; the plugin plumbing in plugin/', () => {
  const loose = files.filter((f) => /^provider\/[^/]+\.ts$/.test(f.file)).map((f) => f.file.slice('provider/'.length)).sort();
  expect(loose).toEqual([
    'api-members.ts', 'closest.ts', 'configure.ts', 'connection-test.ts', 'diagnostics.ts', 'docs.ts', 'documented.ts', 'main.ts', 'rate-forecast.ts',
    'reader-language.ts', 'schema.ts', 'server-filters.ts', 'session.ts', 'shared-reads.ts',
  ]);
  for (const family of ['resources', 'data-sources', 'list-resources', 'actions']) {
    expect(files.filter((f) => f.file.startsWith(`provider/${family}/`)).map((f) => f.file.split('/').pop())).toEqual(expect.arrayContaining(['index.ts', 'rpcs.ts']));
  }
});

test('only the seam imports cdktf (constructs/cdk.ts), so the CDK Terrain flavour changes one module', () => {
  const offending = files.filter((f) => f.file !== 'constructs/cdk.ts').flatMap((f) => f.imports.filter((i) => i === 'cdktf' || i.startsWith('cdktf/') || i.startsWith('@cdktf/')).map((i) => `${f.file} -> ${i}`));
  expect(offending).toEqual([]);
});

// Issue 61 §2: the layers flow down once; no module reaches back to one that imports it.
test('no import circle among the sources (type imports included)', () => {
  const resolve = (from: string, spec: string): string | undefined => {
    if (!spec.startsWith('.')) return undefined;
    const base = join(dirname(join(SRC, from)), spec);
    const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => files.some((f) => join(SRC, f.file) === candidate));
    return found && relative(SRC, found);
  };
  const edges = new Map(files.map((f) => [f.file, f.imports.flatMap((i) => resolve(f.file, i) ?? [])]));
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of edges.keys()) visit(file, []);
  expect(circles).toEqual([]);
});

test('a provider process stands alone: nothing under src/provider reads /proc, its parent process or files another process wrote', () => {
  const provider = files.filter((f) => f.file.startsWith('provider/'));
  const offending = provider.flatMap((f) => {
    const text = readFileSync(join(SRC, f.file), 'utf8');
    return [/\/proc\b/, /process\.ppid/, /\bnode:fs\b/, /\bnode:child_process\b/].filter((pattern) => pattern.test(text)).map((pattern) => `${f.file}: ${pattern}`);
  });
  // One decides no answer: the handshake ends the process once its parent is gone (go-plugin's rule).
  expect(offending).toEqual(['provider/plugin/serve.ts: /process\\.ppid/']);
});
