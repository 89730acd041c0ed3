import { resolve } from 'node:path';
import { THIS_PACKAGE } from './this-package';
import { parseProviderSource, PROVIDER_SOURCE } from '../contract/provider-address';
import { mirrorInstructions, providerVersion, readProviderBundle, writePackedProviderMirror, writeProviderMirror } from '../contract/provider-mirror';

export const PROVIDER_USAGE = `${THIS_PACKAGE.name} provider mirror <directory> [--packed] [--source HOST/NAMESPACE/hosting]`;

/**
 * `provider mirror <dir> [--packed]`: the provider as a Terraform filesystem mirror, for plain HCL
 * users, and the blocks to paste; `--packed` writes the layout `terraform providers mirror` writes
 * (zips, `index.json`, `<version>.json`), which a platform team can also serve as a network mirror.
 * `--source` publishes it under a team's own address. Run it again after upgrading this package,
 * then `terraform init -upgrade`.
 */
export function runProviderCommand(args: readonly string[], print: (text: string) => void): void {
  const { packed, source, positional } = parseMirrorArgs(args);
  const [verb, dir, ...rest] = positional;
  if (verb !== 'mirror' || !dir || rest.length) throw new Error(`usage: ${PROVIDER_USAGE}`);
  const root = resolve(dir);
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  if (packed) {
    const zips = writePackedProviderMirror(root, bundle, version, source);
    print(`Wrote the hosting provider ${version} as ${zips.length} zip archives (linux and darwin, amd64 and arm64) with index.json and ${version}.json to ${root}\n`);
    print('# Served over HTTPS by any static server, the same folder is a network mirror:\n#   provider_installation { network_mirror { url = "https://<host>/" } }\n');
  } else {
    writeProviderMirror(root, bundle, version, source);
    print(`Wrote the hosting provider ${version} for linux and darwin (amd64, arm64) to ${root}\n`);
  }
  print(mirrorInstructions(root, version, source));
}

/** `--packed`, `--source ADDRESS` (or `--source=ADDRESS`), and the words left. */
function parseMirrorArgs(args: readonly string[]): { packed: boolean; source: string; positional: string[] } {
  const result = { packed: false, source: PROVIDER_SOURCE, positional: [] as string[] };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag === '--packed') result.packed = true;
    else if (flag === '--source') result.source = parseProviderSource(inline ?? args[++i] ?? '');
    else result.positional.push(args[i]);
  }
  return result;
}
