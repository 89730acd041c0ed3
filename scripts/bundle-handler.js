// Bundles the reconcile handler into one self-contained file that Terraform's local-exec runs
// with plain `node`: no node_modules where Terraform runs. Run by the bundle:handler task.
const { build } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');
const outfile = join(root, 'assets', 'handler', 'index.js');

/** Swaps the bare `undici` import (not its subpaths) for the slim entry the handler needs. */
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(__dirname, 'undici-for-handler.js') }));
  },
};

build({
  entryPoints: [join(root, 'src', 'handler', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [slimUndici],
}).then((result) => {
  const bytes = Object.entries(result.metafile.outputs).find(([name]) => name.endsWith('index.js'))[1].bytes;
  process.stdout.write(`handler bundle: ${outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);
}, (err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
