/* eslint-disable no-bitwise -- file modes are bit fields */
import { chmodSync, lstatSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { privateFolderProblem, userFolder } from '../contract/private-folder';

const NAME = 'cdktf-server-hosting';

/**
 * The cache folder the user's settings name, if they name one with an absolute path: a relative
 * HOME (or none, and no passwd entry: an arbitrary-uid container) would put it in the working
 * folder, where `git add .` takes it. `why` says what was missing.
 */
function namedCache(env: NodeJS.ProcessEnv): { dir?: string; why: string } {
  if (isAbsolute(env.XDG_CACHE_HOME ?? '')) return { dir: join(env.XDG_CACHE_HOME!, NAME), why: 'XDG_CACHE_HOME' };
  let home = env.HOME;
  if (home === undefined) {
    try {
      home = userInfo().homedir;
    } catch {
      return { why: 'HOME is not set and this user has no passwd entry' };
    }
  }
  return isAbsolute(home) ? { dir: join(home, '.cache', NAME), why: home } : { why: `HOME (${JSON.stringify(home)}) is not an absolute path` };
}

/** `dir` made this user's alone if it is theirs already (an earlier version made it under umask 002); why not, if it cannot be. */
function privateProblem(dir: string): string | undefined {
  try {
    const stat = lstatSync(dir);
    if (stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) !== 0) chmodSync(dir, 0o700);
  } catch {
    // Not there yet: made below.
  }
  return privateFolderProblem(dir);
}

/**
 * This user's cache folder: `$CDKTF_SERVER_HOSTING_CACHE_DIR` as given, else
 * `$XDG_CACHE_HOME/cdktf-server-hosting`, else `~/.cache/cdktf-server-hosting`, made this user's
 * alone. Where none of those can be had (no HOME, a relative or unwritable one), a folder of this
 * user's in the temporary folder, and `say` hears why in one line.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, say: (line: string) => void = () => undefined): string {
  if (env.CDKTF_SERVER_HOSTING_CACHE_DIR) return env.CDKTF_SERVER_HOSTING_CACHE_DIR;
  const named = namedCache(env);
  const problem = named.dir ? privateProblem(named.dir) : named.why;
  if (!problem) return named.dir!;
  const fallback = userFolder(`${NAME}-cache`);
  const fallbackProblem = privateProblem(fallback);
  if (fallbackProblem) throw new Error(`no cache folder of this user's: ${problem}, and ${fallbackProblem}; set CDKTF_SERVER_HOSTING_CACHE_DIR to a folder of yours`);
  say(`${problem}: the cache is kept in ${fallback} instead`);
  return fallback;
}
