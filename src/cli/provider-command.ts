import { resolve } from 'node:path';
import { defaultCacheDir, NODE_RELEASE, standaloneExecutables } from './standalone-executable';
import { THIS_PACKAGE } from './this-package';
import { parseProviderSource, PROVIDER_SOURCE } from '../contract/provider-address';
import {
  mirrorInstructions, PLATFORMS, providerVersion, readProviderBundle, scriptPackage, standalonePackage,
  writePackedProviderMirror, writeProviderMirror, type Platform, type ProviderPackage,
} from '../contract/provider-mirror';

export const PROVIDER_USAGE = `${THIS_PACKAGE.name} provider mirror <directory> [--packed] [--standalone [--platform OS_ARCH]...] [--source HOST/NAMESPACE/hosting]`;

/**
 * `provider mirror <dir> [--packed]`: the provider as a Terraform filesystem mirror, for plain HCL
 * users, and the blocks to paste; `--packed` writes the layout `terraform providers mirror` writes
 * (zips, `index.json`, `<version>.json`), which a platform team can also serve as a network mirror.
 * `--standalone` writes the provider as one executable per platform, which runs where Terraform
 * runs without Node; `--platform` limits it to some platforms. `--source` publishes it under a
 * team's own address. Run it again after upgrading this package, then `terraform init -upgrade`.
 */
export function runProviderCommand(args: readonly string[], print: (text: string) => void, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  const options = parseMirrorArgs(args);
  const [verb, dir, ...rest] = options.positional;
  if (verb !== 'mirror' || !dir || rest.length) throw new Error(`usage: ${PROVIDER_USAGE}`);
  if (options.platforms.length && !options.standalone) throw new Error('--platform selects the platforms of --standalone; the script provider is the same on all four');
  const root = resolve(dir);
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  const platforms = options.platforms.length ? options.platforms : PLATFORMS;
  const pkg = options.standalone
    ? standalonePackage(version, standaloneExecutables(bundle, platforms, { cacheDir: defaultCacheDir(), log }))
    : scriptPackage(bundle, version);
  const what = `the hosting provider ${version} (${describe(pkg, options.standalone)})`;
  if (options.packed) {
    const zips = writePackedProviderMirror(root, pkg, options.source);
    print(`Wrote ${what} as ${zips.length} zip archives with index.json and ${version}.json to ${root}\n`);
    print('# Served over HTTPS by any static server, the same folder is a network mirror:\n#   provider_installation { network_mirror { url = "https://<host>/" } }\n');
  } else {
    writeProviderMirror(root, pkg, options.source);
    print(`Wrote ${what} to ${root}\n`);
  }
  if (options.standalone && pkg.files.has('darwin_arm64') && process.platform !== 'darwin') {
    print('# darwin_arm64: macOS runs arm64 executables only when signed. Sign it once on the Mac, before `terraform init`:\n#   codesign --sign - <mirror>/…/darwin_arm64/terraform-provider-hosting_v*\n# (or run this command on a Mac, which signs it ad hoc itself).\n');
  }
  print(mirrorInstructions(root, version, options.source));
}

const describe = (pkg: ProviderPackage, standalone: boolean) =>
  `${standalone ? `standalone executables with Node ${NODE_RELEASE}, no Node needed` : 'a script run by node'}; ${[...pkg.files.keys()].join(', ')}`;

interface MirrorOptions {
  packed: boolean;
  standalone: boolean;
  platforms: Platform[];
  source: string;
  positional: string[];
}

/** `--packed`, `--standalone`, `--platform OS_ARCH` (repeatable), `--source ADDRESS` (each also as `--flag=value`), and the words left. */
function parseMirrorArgs(args: readonly string[]): MirrorOptions {
  const result: MirrorOptions = { packed: false, standalone: false, platforms: [], source: PROVIDER_SOURCE, positional: [] };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag === '--packed') result.packed = true;
    else if (flag === '--standalone') result.standalone = true;
    else if (flag === '--platform') result.platforms.push(parsePlatform(inline ?? args[++i] ?? ''));
    else if (flag === '--source') result.source = parseProviderSource(inline ?? args[++i] ?? '');
    else result.positional.push(args[i]);
  }
  return result;
}

function parsePlatform(text: string): Platform {
  if ((PLATFORMS as readonly string[]).includes(text)) return text as Platform;
  throw new Error(`--platform ${JSON.stringify(text)} is not one the provider is built for: use ${PLATFORMS.join(', ')}`);
}
