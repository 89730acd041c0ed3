// Bundles one program into a self-contained file that plain `node` runs where Terraform runs, with
// no node_modules: the reconcile handler (Terraform's local-exec runs it per resource), the
// Terraform provider (written into each synthesized stack), or the two inside each standalone
// executable: its main program (the provider) and the command-line tool it runs when run by hand,
// which is also the package's command and its `./simulator` subpath.
// Usage: node scripts/bundle.js <handler|provider|standalone|standalone-cli>...
// Also a module: bundleInputs(target) lists the files a bundle is made of (the provider's SBOM).
// Each bundle carries the package's name and version: one file has no package.json beside it.
const { build } = require('esbuild');
const { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// `embedsProvider`: the program starts the provider at its handshake and carries the provider's RPC
// program as text, compiled at Terraform's first RPC (src/provider/plugin/embedded-program.ts).
const TARGETS = {
  handler: { entry: join(root, 'src', 'handler', 'main.ts'), outfile: join(root, 'assets', 'handler', 'index.js') },
  provider: { entry: join(root, 'src', 'provider', 'main.ts'), outfile: join(root, 'assets', 'provider', 'provider.js'), embedsProvider: true },
  standalone: { entry: join(root, 'src', 'cli', 'executable-main.ts'), outfile: join(root, 'assets', 'standalone', 'standalone.js'), embedsProvider: true },
  'standalone-cli': { entry: join(root, 'src', 'cli', 'bundle-entry.ts'), outfile: join(root, 'assets', 'standalone', 'cli.js') },
};

const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Swaps the bare `undici` import (not its subpaths) for the slim entry both programs need. */
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(__dirname, 'undici-slim.js') }));
  },
};

/**
 * The simulator reads its live page from the package's live-page/ folder; a bundle has no package
 * beside it, so it carries the same files inline (src/simulator/live-page-files.ts).
 */
const inlineLivePage = {
  name: 'inline-live-page',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]simulator[\\/]live-page-files\.ts$/ }, () => {
      const dir = join(root, 'live-page');
      const files = Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
      return { contents: `const FILES = ${JSON.stringify(files)};\nexport function readLivePageFile(name) { return FILES[name]; }\n`, loader: 'js', watchFiles: Object.keys(files).map((name) => join(dir, name)) };
    });
  },
};

/** The provider's RPC program: built in memory (its outfile only names the outputs), embedded in the bundles that start the provider. */
const PROVIDER_RPC = { entry: join(root, 'src', 'provider', 'plugin', 'provider-server.ts'), outfile: join(root, 'assets', 'provider', 'provider-rpc.js') };

const options = (target, embedded = {}) => ({
  entryPoints: [target.entry],
  outfile: target.outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [slimUndici, inlineLivePage],
  define: { EMBEDDED_PACKAGE_MANIFEST: JSON.stringify({ name, version }), ...embedded },
});

/** The RPC program's text, its legal comments and its source files, for a bundle that embeds it. */
async function providerRpcProgram() {
  const result = await build({ ...options(PROVIDER_RPC), write: false, legalComments: 'external', logLevel: 'silent' });
  const text = (suffix) => result.outputFiles.find((file) => file.path.endsWith(suffix))?.text ?? '';
  return { source: text('.js'), legal: text('.LEGAL.txt'), inputs: Object.keys(result.metafile.inputs) };
}

/**
 * Builds one target (`overrides`: esbuild options, such as `write: false`); one that embeds the
 * provider gets the RPC program's text, and its legal file the RPC program's comments too.
 */
async function bundle(target, overrides = {}) {
  if (!target.embedsProvider) return { result: await build({ ...options(target), ...overrides }), rpcInputs: [] };
  const rpc = await providerRpcProgram();
  const legalFile = `${target.outfile}.LEGAL.txt`;
  // esbuild writes no legal file for a bundle without legal comments: one left from an earlier build would grow.
  if (overrides.write !== false) rmSync(legalFile, { force: true });
  const result = await build({ ...options(target, { PROVIDER_RPC_PROGRAM: JSON.stringify(rpc.source) }), ...overrides });
  if (overrides.write !== false && rpc.legal) appendFileSync(legalFile, existsSync(legalFile) ? `\n${rpc.legal}` : rpc.legal);
  return { result, rpcInputs: rpc.inputs };
}

/** The source files (relative to the repository) the bundle of `name` is made of, built in memory. */
async function bundleInputs(name) {
  const { result, rpcInputs } = await bundle(TARGETS[name], { write: false, logLevel: 'silent' });
  return [...new Set([...Object.keys(result.metafile.inputs), ...rpcInputs])];
}
module.exports = { bundleInputs };

if (require.main === module) {
  const names = process.argv.slice(2);
  if (names.length === 0 || !names.every((name) => TARGETS[name])) {
    process.stderr.write(`usage: node scripts/bundle.js <${Object.keys(TARGETS).join('|')}>...\n`);
    process.exit(64);
  }
  Promise.all(names.map(async (name) => {
    const { result } = await bundle(TARGETS[name]);
    const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs).find((file) => file.endsWith('.js'))].bytes;
    process.stdout.write(`${name} bundle: ${TARGETS[name].outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);
  })).catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
