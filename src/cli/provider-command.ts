import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandHelp } from './command-help';
import { asUsage, closestWord, parseCommandLine, UsageError } from './command-line';
import { providerBuilds } from './provider-builds';
import { releaseSigner, signedRelease, SIGNING_PASSPHRASE_VARIABLE } from './release-signing';
import { NODE_RELEASE } from './standalone-executable';
import { isNamespace, isRegistryHost, parseProviderSource, PROVIDER_SOURCE } from '../contract/provider-address';
import {
  executableName, mirrorInstructions, PLATFORMS, writePackedProviderMirror, writeProviderMirror, type Platform, type ProviderPackage,
} from '../contract/provider-mirror';
import { mergedRelease, registryInstructions, writeProviderRegistry, type RegistryAddress } from '../contract/provider-registry';
import { providerRelease } from '../contract/provider-release';

export const PROVIDER_MIRROR_HELP: CommandHelp = {
  words: 'provider mirror',
  summary: 'Write the provider as a filesystem mirror',
  forms: ['<directory> [--packed] [--standalone [--platform OS_ARCH]...] [--source HOST/NAMESPACE/hosting]'],
  about: 'Writes the Terraform provider into <directory> as a filesystem mirror, and prints the blocks that make Terraform '
    + 'install it from there. Run it again after upgrading this package, then "terraform init -upgrade".',
  options: [
    ['<directory>', 'the folder to write (made if missing)'],
    ['--packed', 'the layout "terraform providers mirror" writes (zips, index.json): also a network mirror'],
    ['--standalone', 'one executable per platform, which runs without Node'],
    ['--platform OS_ARCH', `with --standalone, only these platforms (repeatable): ${PLATFORMS.join(', ')}`],
    ['--source ADDRESS', 'publish under HOST/NAMESPACE/hosting instead of the default address'],
  ],
  examples: [['provider', 'mirror', 'providers'], ['provider', 'mirror', 'providers', '--standalone', '--platform', 'linux_amd64']],
};

export const PROVIDER_REGISTRY_HELP: CommandHelp = {
  words: 'provider registry',
  summary: 'Write this version into a signed provider registry',
  forms: ['<directory> --host HOST --namespace NAMESPACE --signing-key FILE [--platform OS_ARCH]...'],
  about: 'Adds this version to the provider registry in <directory> (the standalone executables, signed), beside the versions '
    + 'already there. Any static HTTPS host serving the folder at --host is then a registry Terraform installs from by version.',
  options: [
    ['<directory>', 'the registry\'s folder (made if missing)'],
    ['--host HOST', 'where the folder is served over HTTPS, e.g. registry.example.com'],
    ['--namespace NAME', 'the NAMESPACE of HOST/NAMESPACE/hosting'],
    ['--signing-key FILE', `an ASCII-armoured OpenPGP private key; its passphrase, if any, from ${SIGNING_PASSPHRASE_VARIABLE}`],
    ['--platform OS_ARCH', 'only these platforms (repeatable; default: every one)'],
  ],
  examples: [['provider', 'registry', 'registry', '--host', 'registry.example.com', '--namespace', 'platform', '--signing-key', 'release-key.asc']],
};

/** `provider` alone, or with a verb it does not have: both verbs' usage. */
export const PROVIDER_HELP: CommandHelp = {
  words: 'provider',
  summary: 'Write the provider as a mirror or into a registry',
  forms: ['mirror <directory> [OPTIONS]', 'registry <directory> --host HOST --namespace NAMESPACE --signing-key FILE'],
  about: '"provider mirror" writes the provider as a filesystem mirror; "provider registry" adds this version to a signed registry. '
    + '"provider mirror --help" and "provider registry --help" list their options.',
  options: [],
  examples: [['provider', 'mirror', 'providers']],
};

const stderrLine = (line: string) => process.stderr.write(`${line}\n`);

/** `provider mirror …` or `provider registry …`, as the package's command runs them. */
export async function runProviderCommand(args: readonly string[], print: (text: string) => void, log = stderrLine): Promise<void> {
  const [verb, ...rest] = args;
  if (verb === 'mirror') return runMirrorCommand(rest, print, log);
  if (verb === 'registry') return writeRegistry(parseProviderArgs(rest), print, log);
  const meant = verb === undefined ? undefined : closestWord(verb, ['mirror', 'registry']);
  throw new UsageError(verb === undefined ? 'a provider command is missing: mirror or registry' : `unknown provider command ${JSON.stringify(verb)}${meant ? `; did you mean "${meant}"?` : ''}`);
}

/**
 * `provider mirror <dir> [--packed]`: the provider as a Terraform filesystem mirror, for plain HCL
 * users, and the blocks to paste; `--packed` writes the layout `terraform providers mirror` writes
 * (zips, `index.json`, `<version>.json`), which a platform team can also serve as a network mirror.
 * `--standalone` writes the provider as one executable per platform, which runs where Terraform
 * runs without Node; `--platform` limits it to some platforms. `--source` publishes it under a
 * team's own address. Run it again after upgrading this package, then `terraform init -upgrade`.
 * Synchronous: the tests' stacks write the same mirror while they synthesize.
 */
export function runMirrorCommand(args: readonly string[], print: (text: string) => void, log: (line: string) => void = stderrLine): void {
  const options = parseProviderArgs(args);
  const root = resolve(options.directory);
  if (options.host || options.namespace || options.signingKey) throw new UsageError('--host, --namespace and --signing-key belong to "provider registry"');
  const builds = providerBuilds();
  // The standalone executable has no script provider to write (builds.script): it writes itself.
  const script = options.standalone ? undefined : builds.script;
  const standalone = !script;
  if (options.platforms.length && !standalone) throw new UsageError('--platform selects the platforms of --standalone; the script provider is written for every platform, as node runs it on each');
  const { version } = builds;
  const pkg = script ? script() : builds.standalone(options.platforms.length ? options.platforms : builds.platforms, log, 'mirror');
  const what = `the hosting provider ${version} (${describe(pkg, standalone)})`;
  if (options.packed) {
    const zips = writePackedProviderMirror(root, pkg, options.source);
    print(`Wrote ${what} as ${zips.length} zip archives with index.json and ${version}.json to ${root}\n`);
    print('# Served over HTTPS by any static server, the same folder is a network mirror:\n#   provider_installation { network_mirror { url = "https://<host>/" } }\n');
  } else {
    writeProviderMirror(root, pkg, options.source);
    print(`Wrote ${what} to ${root}\n`);
  }
  if (standalone && pkg.files.has('darwin_arm64') && process.platform !== 'darwin') {
    print(options.packed
      // A packed mirror holds the executable inside a zip whose hash lock files record: it cannot be signed in place.
      ? '# darwin_arm64: macOS runs arm64 executables only when signed, and this packed mirror holds it unsigned in a zip.\n#   Run this command on a Mac (it signs ad hoc) to publish darwin_arm64, or use an unpacked mirror and sign it there.\n'
      : `# darwin_arm64: macOS runs arm64 executables only when signed. Sign it once on the Mac, before \`terraform init\`:\n#   codesign --sign - ${join(root, ...options.source.split('/'), version, 'darwin_arm64', executableName(version, 'darwin_arm64'))}\n# (or run this command on a Mac, which signs it ad hoc itself).\n`);
  }
  print(mirrorInstructions(root, version, options.source));
}

/**
 * `provider registry <dir>`: the package's version as a provider registry in a folder (the standalone
 * executables, signed), added to the versions the folder already serves. Any static HTTPS host
 * serving the folder at `--host` is then a registry Terraform installs from by version constraint.
 */
async function writeRegistry(options: ProviderOptions, print: (text: string) => void, log: (line: string) => void): Promise<void> {
  const root = resolve(options.directory);
  if (options.packed || options.standalone || options.source !== PROVIDER_SOURCE) throw new UsageError('--packed, --standalone and --source belong to "provider mirror"; a registry always serves the standalone executables at --host/--namespace');
  const address = registryAddress(options);
  if (!options.signingKey) throw new UsageError('--signing-key FILE is required: Terraform installs nothing from a registry that is not signed (an ASCII-armoured OpenPGP private key)');
  const signer = await releaseSigner(readKeyFile(options.signingKey), process.env[SIGNING_PASSPHRASE_VARIABLE], options.signingKey);
  const builds = providerBuilds();
  const { version } = builds;
  const pkg = builds.standalone(options.platforms.length ? options.platforms : builds.platforms, log, 'registry');
  const release = await mergedRelease(root, providerRelease(pkg), address, signer);
  writeProviderRegistry(root, await signedRelease(release, signer), address, signer);
  const kept = release.archives.filter((a) => !pkg.files.has(a.platform)).map((a) => a.platform);
  print(`Wrote the hosting provider ${version} (${describe(pkg, true)}) to the registry in ${root}, signed with key ID ${signer.keyId}\n`);
  print(`# Publish the key's fingerprint where your users look (terraform init prints the key ID, its last 16 digits): ${signer.fingerprint}\n`);
  if (kept.length) print(`# Version ${version} also keeps ${kept.join(', ')}, written before: its SHA256SUMS and signature now cover all ${release.archives.length} platforms.\n`);
  print(registryInstructions(address, version));
}

function registryAddress(options: ProviderOptions): RegistryAddress {
  const host = options.host?.toLowerCase() ?? '';
  const namespace = options.namespace?.toLowerCase() ?? '';
  if (!isRegistryHost(host)) throw new UsageError(`--host ${JSON.stringify(options.host ?? '')} is not a registry host: the host name (and port, if not 443) users write before /NAMESPACE/hosting, e.g. registry.example.com or localhost:8443`);
  if (!isNamespace(namespace)) throw new UsageError(`--namespace ${JSON.stringify(options.namespace ?? '')} is not a namespace: lower-case letters, digits and inner hyphens, e.g. platform`);
  return { host, namespace };
}

function readKeyFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--signing-key ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

const describe = (pkg: ProviderPackage, standalone: boolean) =>
  `${standalone ? `standalone executables with Node ${NODE_RELEASE}, no Node needed` : 'a script run by node'}; ${[...pkg.files.keys()].join(', ')}`;

interface ProviderOptions {
  packed: boolean;
  standalone: boolean;
  platforms: Platform[];
  source: string;
  host?: string;
  namespace?: string;
  signingKey?: string;
  directory: string;
}

/** Both verbs' flags: each verb refuses the other's by name, saying which verb takes it. */
const PROVIDER_FLAGS = {
  'packed': { type: 'boolean' },
  'standalone': { type: 'boolean' },
  'platform': { type: 'string', multiple: true },
  'source': { type: 'string' },
  'host': { type: 'string' },
  'namespace': { type: 'string' },
  'signing-key': { type: 'string' },
} as const;

/** The flags of `provider mirror|registry` and its one word, the directory. */
export function parseProviderArgs(args: readonly string[]): ProviderOptions {
  const { flags, words } = parseCommandLine(args, PROVIDER_FLAGS, 1);
  if (words.length !== 1) throw new UsageError('the directory to write is missing');
  return {
    packed: flags.packed ?? false,
    standalone: flags.standalone ?? false,
    platforms: (flags.platform ?? []).map(parsePlatform),
    source: flags.source === undefined ? PROVIDER_SOURCE : asUsage(() => parseProviderSource(flags.source!)),
    host: flags.host,
    namespace: flags.namespace,
    signingKey: flags['signing-key'],
    directory: words[0],
  };
}

function parsePlatform(text: string): Platform {
  if ((PLATFORMS as readonly string[]).includes(text)) return text as Platform;
  throw new UsageError(`--platform ${JSON.stringify(text)} is not one the provider is built for: use ${PLATFORMS.join(', ')}`);
}
