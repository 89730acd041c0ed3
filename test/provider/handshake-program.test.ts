import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { runEmbeddedProgram } from '../../src/provider/plugin/embedded-program';

/*
 * Terraform starts the provider several times a run and waits for its handshake line each time:
 * what runs before that line is the certificate and the gRPC server, nothing of the provider itself.
 * The RPCs, the API client, zod, protobufjs and msgpack come with the embedded RPC program, compiled
 * at Terraform's first RPC (embedded-program.ts). A new import from the handshake's files would put
 * them back before the line; this test names it first.
 */

const ROOT = join(__dirname, '..', '..');

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    logLevel: 'silent',
    define: { PROVIDER_RPC_PROGRAM: '""' },
  });
  return Object.keys(result.metafile.inputs).map((input) => relative(ROOT, join(process.cwd(), input))).sort();
}

test.each([
  ['the script provider', 'src/provider/main.ts'],
  ['the standalone executable', 'src/cli/executable-main.ts'],
])('%s runs only the handshake\'s own files before its handshake line: no package, no provider code', async (_what, entry) => {
  const handshake = ['src/provider/plugin/certificate.ts', 'src/provider/plugin/embedded-program.ts', 'src/provider/plugin/grpc-server.ts', 'src/provider/plugin/serve.ts'];
  const entries = entry.startsWith('src/cli') ? [entry, 'src/cli/standalone-assets.ts'] : [entry];
  expect(await inputsOf(entry)).toEqual([...entries, ...handshake].sort());
});

test('an embedded program runs as Node runs a CommonJS file: its exports, Node\'s own modules, and errors that name it', () => {
  const program = runEmbeddedProgram<{ joined: string; name: string }>('exports.joined = require("node:path").posix.join("a", "b"); exports.name = __filename;', 'embedded.js');
  expect(program).toEqual({ joined: 'a/b', name: 'embedded.js' });
  expect(() => runEmbeddedProgram('throw new Error("inside")', 'embedded.js')).toThrow('inside');
  let stack = '';
  try {
    runEmbeddedProgram('null.x', 'embedded.js');
  } catch (err) {
    stack = (err as Error).stack ?? '';
  }
  expect(stack).toContain('embedded.js:1');
});
