import { readFileSync } from 'node:fs';
import { NOTICES_ASSET } from './standalone-assets';
import { executableNotices, hostPlatform, standaloneExecutables } from './standalone-executable';
import { THIS_PACKAGE } from './this-package';
import { defaultCacheDir } from './user-cache';
import {
  PLATFORMS, providerVersion, readProviderBundle, readStandaloneProgram, scriptPackage, standalonePackage,
  type Platform, type ProviderPackage,
} from '../contract/provider-mirror';

/** The `provider` command's verbs. */
export type ProviderVerb = 'mirror' | 'registry';

/** How each verb builds every platform from the npm package. */
const EVERY_PLATFORM: Record<ProviderVerb, string> = {
  mirror: 'provider mirror <directory> --standalone',
  registry: 'provider registry <directory> --host HOST --namespace NAMESPACE --signing-key FILE',
};

/** The provider packages `provider mirror` and `provider registry` can write, and their version. */
export interface ProviderBuilds {
  readonly version: string;
  /** The platforms written when none is named. */
  readonly platforms: readonly Platform[];
  /** The script provider (node runs it); absent where only the standalone executable is at hand. */
  readonly script?: () => ProviderPackage;
  /** `verb` is the command being run, for the refusal that says how to build another platform. */
  readonly standalone: (platforms: readonly Platform[], log: (line: string) => void, verb: ProviderVerb) => ProviderPackage;
}

/** The npm package's bundles, or, run by hand as the standalone executable, that executable itself. */
export function providerBuilds(): ProviderBuilds {
  return THIS_PACKAGE.standalone ? thisExecutable() : packagedBundles();
}

function packagedBundles(): ProviderBuilds {
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  return {
    version,
    platforms: PLATFORMS,
    script: () => scriptPackage(bundle, version),
    // Each executable comes with the licences of what it holds, Node's among them.
    standalone: (platforms, log) => {
      // Built by this run, for a mirror as for a registry: a file planted in the cache is never written out.
      const build = { cacheDir: defaultCacheDir(process.env, log), log };
      return standalonePackage(version, standaloneExecutables(readStandaloneProgram(), platforms, build), executableNotices(build));
    },
  };
}

/**
 * The notices the executable carries (its bundles' packages and Node). node:sea is read only here,
 * inside the executable: older Node 20 releases, which may run the npm package, have no such module.
 */
function embeddedNotices(): Buffer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { getAsset } = require('node:sea') as typeof import('node:sea');
  return Buffer.from(getAsset(NOTICES_ASSET));
}

/**
 * The executable writes only itself: it carries no Node binary for another platform. A release's
 * version is the package's; a development build's comes from the executable's own bytes.
 */
function thisExecutable(): ProviderBuilds {
  const host = hostPlatform()!;
  const executable = readFileSync(process.execPath);
  const version = providerVersion(executable);
  return {
    version,
    platforms: [host],
    standalone: (platforms, _log, verb) => {
      const others = platforms.filter((platform) => platform !== host);
      if (others.length) {
        throw new Error(`--platform ${others.join(', ')}: this executable is the ${host} provider and writes only itself; run the executable of that platform, `
          + `or "npx ${THIS_PACKAGE.name} ${EVERY_PLATFORM[verb]}", which builds every platform`);
      }
      return standalonePackage(version, new Map([[host, executable]]), embeddedNotices());
    },
  };
}
