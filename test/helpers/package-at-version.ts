import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '..', '..');

/**
 * This package as `npm install cdktf-server-hosting@<version>` would leave it: its built files
 * (lib, assets, bin) copied under `root` with `version` in package.json and in the command's
 * bundle (which a release builds after its version bump), and the repository's node_modules linked.
 * Copied, not linked: the library finds its package.json beside the real path of its own files.
 * Returns a runner of the package's command.
 */
export function packageAtVersion(root: string, version: string): (args: string[], env?: Record<string, string>) => { code: number; output: string } {
  const dir = join(root, `package-${version}`);
  for (const entry of ['lib', 'assets', 'bin']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, version }, null, 2));
  const cli = join(dir, 'assets', 'standalone', 'cli.js');
  const embedded = `{name:${JSON.stringify(manifest.name)},version:${JSON.stringify(manifest.version)}}`;
  const bundle = readFileSync(cli, 'utf8');
  if (bundle.split(embedded).length !== 2) throw new Error(`${cli} does not embed ${embedded} exactly once; scripts/bundle.js writes it`);
  writeFileSync(cli, bundle.replace(embedded, `{name:${JSON.stringify(manifest.name)},version:${JSON.stringify(version)}}`));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return (args, env = {}) => {
    const result = spawnSync(process.execPath, [join(dir, 'bin', 'cdktf-server-hosting'), ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
    return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
  };
}
