import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/*
 * The package has no dependencies but its peers: the library the jsii runtime loads (lib/index.js,
 * in Python too) reaches no package but cdktf and constructs, and every program is a bundle that
 * carries its own. A new import of zod, undici or openpgp from the constructs or the testing kit
 * would break every installed package at load time; this test names it first.
 */

const ROOT = join(__dirname, '..', '..');

test('the library reaches no package but cdktf and constructs', async () => {
  const result = await build({
    entryPoints: [join(ROOT, 'src', 'index.ts')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    logLevel: 'silent',
    external: ['cdktf', 'cdktf/*', 'constructs'],
  });
  const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules/'));
  expect(packages).toEqual([]);
});

test('package.json declares no dependencies of its own, and its command and simulator subpath are the program bundle', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>;
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.bundledDependencies).toBeUndefined();
  expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['cdktf', 'constructs']);
  expect(manifest.exports['./simulator'].default).toBe('./assets/standalone/cli.js');
  expect(readFileSync(join(ROOT, 'bin', 'cdktf-server-hosting'), 'utf8')).toContain("join(__dirname, '..', 'assets', 'standalone', 'cli.js')");
});
