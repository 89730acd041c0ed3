import { basename } from 'node:path';
import { isSea } from 'node:sea';
import { packageManifest } from '../contract/package-manifest';

/** The CDK a flavour of this library is built for: CDK for Terraform, or CDK Terrain. */
export type CdkFlavour = 'cdktf' | 'cdktn';

/**
 * The flavour this package was built as, from its own name: `cdktf-server-hosting`, or
 * `cdktn-server-hosting` for CDK Terrain. Its commands and the programs `adopt` writes use it.
 * `command` is what a user types: the package's command, or the standalone executable as it was
 * run by hand, by the name or path typed (an HCL team has that executable and nothing else).
 */
export interface ThisPackage {
  readonly name: string;
  readonly version: string;
  readonly cdk: CdkFlavour;
  readonly command: string;
  /**
   * The command as a shell runs it, for lines a user copies (`Stop: … simulator stop --port N`):
   * the package's command, on PATH once installed, or the standalone executable by its absolute
   * path, which no PATH names (quoted for the shell when it must be).
   */
  readonly runnable: string;
  readonly standalone: boolean;
}

/** `path` as one word of a POSIX shell: as it is when it is plain, else in single quotes. */
export const shellWord = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, '\'\\\'\'')}'`);

export const THIS_PACKAGE: ThisPackage = (() => {
  const { name, version } = packageManifest();
  const standalone = isSea();
  // As the user typed it: through a link on PATH the executable's own file name would not run.
  const command = standalone ? process.argv0 || basename(process.execPath) : name;
  return { name, version, cdk: name.startsWith('cdktn-') ? 'cdktn' : 'cdktf', command, runnable: standalone ? shellWord(process.execPath) : name, standalone };
})();
