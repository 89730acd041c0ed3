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
   * The command as the user ran it, for the command lines they copy (`… simulator stop --port N`):
   * `npx cdktf-server-hosting` through npm (the package's command is on no shell's PATH in an npm
   * project), `pnpm exec …` or `yarn …` through those; the standalone executable by the name typed
   * when PATH found it, else by its absolute path (quoted for the shell when it must be).
   */
  readonly runnable: string;
  readonly standalone: boolean;
}

/** `path` as one word of a POSIX shell: as it is when it is plain, else in single quotes. */
export const shellWord = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, '\'\\\'\'')}'`);

/** How the package's command is run again from the shell it was run from: through the launcher that ran it, else by its name. */
export function runnableCommand(name: string, env: NodeJS.ProcessEnv): string {
  const agent = env.npm_config_user_agent ?? '';
  if (agent.startsWith('pnpm/')) return `pnpm exec ${name}`;
  if (agent.startsWith('yarn/')) return `yarn ${name}`;
  return env.npm_command ? `npx ${name}` : name;
}

/** The standalone executable as a shell runs it again: by the name typed when PATH found it (a link's too), else by its path. */
export const runnableExecutable = (typed: string, path: string): string => (typed && !/[/\\]/.test(typed) ? typed : shellWord(path));

export const THIS_PACKAGE: ThisPackage = (() => {
  const { name, version } = packageManifest();
  const standalone = isSea();
  // As the user typed it: through a link on PATH the executable's own file name would not run.
  const command = standalone ? process.argv0 || basename(process.execPath) : name;
  const runnable = standalone ? runnableExecutable(process.argv0, process.execPath) : runnableCommand(name, process.env);
  return { name, version, cdk: name.startsWith('cdktn-') ? 'cdktn' : 'cdktf', command, runnable, standalone };
})();
