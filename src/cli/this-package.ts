import { basename } from 'node:path';
import { isSea } from 'node:sea';
import { packageManifest } from '../contract/package-manifest';

/** The CDK a flavour of this library is built for: CDK for Terraform, or CDK Terrain. */
export type CdkFlavour = 'cdktf' | 'cdktn';

/**
 * The flavour this package was built as, from its own name: `cdktf-server-hosting`, or
 * `cdktn-server-hosting` for CDK Terrain. Its commands and the programs `adopt` writes use it.
 * `command` is what a user types: the package's command, or the standalone executable's own file
 * name when run by hand (an HCL team has that executable and nothing else).
 */
export interface ThisPackage {
  readonly name: string;
  readonly version: string;
  readonly cdk: CdkFlavour;
  readonly command: string;
  readonly standalone: boolean;
}

export const THIS_PACKAGE: ThisPackage = (() => {
  const { name, version } = packageManifest();
  const standalone = isSea();
  return { name, version, cdk: name.startsWith('cdktn-') ? 'cdktn' : 'cdktf', command: standalone ? basename(process.execPath) : name, standalone };
})();
