import { resolve } from 'node:path';
import { mirrorInstructions, providerVersion, readProviderBundle, writeProviderMirror } from '../contract/provider-mirror';

export const PROVIDER_USAGE = 'cdktf-server-hosting provider mirror <directory>';

/**
 * `provider mirror <dir>`: the provider as a Terraform filesystem mirror, for plain HCL users, and
 * the blocks to paste. Run it again after upgrading this package, then `terraform init -upgrade`.
 */
export function runProviderCommand(args: readonly string[], print: (text: string) => void): void {
  const [verb, dir, ...rest] = args;
  if (verb !== 'mirror' || !dir || rest.length) throw new Error(`usage: ${PROVIDER_USAGE}`);
  const root = resolve(dir);
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  writeProviderMirror(root, bundle, version);
  print(`Wrote the hosting provider ${version} for linux and darwin (amd64, arm64) to ${root}\n`);
  print(mirrorInstructions(root, version));
}
