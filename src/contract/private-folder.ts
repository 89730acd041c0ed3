/* eslint-disable no-bitwise -- file modes are bit fields */
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A folder of the system's temporary directory for this user alone, named for the user: another
 * user's folder of the plain name (made first, by whoever ran first) is never this user's, so it
 * can neither hold this user's files back nor feed them.
 */
export const userFolder = (name: string): string => join(tmpdir(), `${name}-${userTag()}`);

const userTag = (): string => String(process.getuid?.() ?? userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_'));

/**
 * Why `dir` may not hold shared files: made here if missing (mode 0700); a link, a file, another
 * user's folder or one others may write into is refused, since what the files hold decides what
 * a process does. Undefined when it may. Where the system has no owners (Windows: each user's
 * temporary directory is their own), a folder is enough.
 */
export function privateFolderProblem(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return `${dir} is not a folder`;
    if (process.getuid && (stat.uid !== process.getuid() || (stat.mode & 0o077) !== 0)) return `${dir} is not this user's alone`;
    return undefined;
  } catch (err) {
    return `${dir} could not be made: ${(err as Error).message}`;
  }
}
