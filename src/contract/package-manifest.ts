import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package's name and version: which flavour was built (cdktf or cdktn), and the provider's version. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
}

/**
 * Written in by scripts/bundle.js: a bundle run as one file (the standalone executable, above all)
 * has no package.json beside it to read.
 */
declare const EMBEDDED_PACKAGE_MANIFEST: PackageManifest | undefined;

/** The package's own manifest: embedded in a bundle, else read from `<package>/package.json`. */
export function packageManifest(): PackageManifest {
  if (typeof EMBEDDED_PACKAGE_MANIFEST !== 'undefined') return EMBEDDED_PACKAGE_MANIFEST;
  const { name, version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as PackageManifest;
  return { name, version };
}
