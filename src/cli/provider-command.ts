import { resolve } from 'node:path';
import { THIS_PACKAGE } from './this-package';
import { mirrorInstructions, providerVersion, readProviderBundle, writePackedProviderMirror, writeProviderMirror } from '../contract/provider-mirror';

export const PROVIDER_USAGE = `${THIS_PACKAGE.name} provider mirror <directory> [--packed]`;

/**
 * `provider mirror <dir> [--packed]`: the provider as a Terraform filesystem mirror, for plain HCL
 * users, and the blocks to paste; `--packed` writes the layout `terraform providers mirror` writes
 * (zips, `index.json`, `<version>.json`), which a platform team can also serve as a network mirror.
 * Run it again after upgrading this package, then `terraform init -upgrade`.
 */
export function runProviderCommand(args: readonly string[], print: (text: string) => void): void {
  const packed = args.includes('--packed');
  const [verb, dir, ...rest] = args.filter((a) => a !== '--packed');
  if (verb !== 'mirror' || !dir || rest.length) throw new Error(`usage: ${PROVIDER_USAGE}`);
  const root = resolve(dir);
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  if (packed) {
    const zips = writePackedProviderMirror(root, bundle, version);
    print(`Wrote the hosting provider ${version} as ${zips.length} zip archives (linux and darwin, amd64 and arm64) with index.json and ${version}.json to ${root}\n`);
    print('# Served over HTTPS by any static server, the same folder is a network mirror:\n#   provider_installation { network_mirror { url = "https://<host>/" } }\n');
  } else {
    writeProviderMirror(root, bundle, version);
    print(`Wrote the hosting provider ${version} for linux and darwin (amd64, arm64) to ${root}\n`);
  }
  print(mirrorInstructions(root, version));
}
