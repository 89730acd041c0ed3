// Bundles the Terraform provider into one file, assets/provider/provider.js, that the synthesized
// stack runs with plain `node` through a small wrapper: no node_modules where Terraform runs.
const { build } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');
const outfile = join(root, 'assets', 'provider', 'provider.js');

/** Same slim undici as the handler: only Agent and Dispatcher#request. */
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(__dirname, 'undici-for-handler.js') }));
  },
};

build({
  entryPoints: [join(root, 'src', 'provider', 'main.ts')],
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
  const bytes = Object.entries(result.metafile.outputs).find(([name]) => name.endsWith('provider.js'))[1].bytes;
  process.stdout.write(`provider bundle: ${outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);
}, (err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
