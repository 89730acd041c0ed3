/* eslint-disable no-bitwise -- file modes and open flags are bit fields */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';

/**
 * What the plan of a `terraform apply` read, for the apply that follows it in the same terraform
 * run. Terraform runs each walk in a new provider process and hands a create's apply nothing of
 * its plan (no prior state, no private data), so without these notes the apply of a created
 * resource reads again what its plan read a moment before, and says again what the plan said. A
 * note counts only for the run that wrote it (`run`, run-identity.ts, names the files) and, as the
 * session keys them, for the account it read; a saved plan applied by another terraform finds none
 * and reads afresh. The notes are a cache, never an authority: a missing, unreadable or foreign
 * file costs a read.
 */
export interface RunNotes {
  /** The terraform run these notes belong to; undefined when it cannot be told (then nothing is noted). */
  readonly run?: string;
  /** The value noted under `key` by this run's plan, if at most `maxAgeMs` old. */
  get(key: string, maxAgeMs: number): unknown;
  put(key: string, value: unknown): void;
  /** Writes this process's notes now (Terraform's Shutdown). */
  flush(): void;
}

/** Notes that keep nothing: every create reads at apply. */
export const NO_NOTES: RunNotes = { get: () => undefined, put: () => undefined, flush: () => undefined };

/** A notes file larger than this is not read (a run of 10,000 resources writes about 2 MB). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Notes files of runs this old are removed by the next run that writes. */
const STALE_FILE_MS = 60 * 60 * 1000;

const fileSchema = z.record(z.string(), z.object({ at: z.number(), value: z.unknown() }));
type Notes = z.infer<typeof fileSchema>;

export interface RunNotesOptions {
  /** The terraform run (`terraformRun`); undefined gives NO_NOTES. */
  readonly run: string | undefined;
  /** Where the notes of this user live; default a folder of their own in the system's temporary folder. */
  readonly dir?: string;
  readonly log: (line: string) => void;
  readonly now?: () => number;
  /** This provider process, which names its own file; default process.pid (tests run several in one). */
  readonly processId?: number;
}

/** The notes of this provider process, kept in a folder only this user may use; NO_NOTES when it cannot be had safely. */
export function createRunNotes(options: RunNotesOptions): RunNotes {
  const now = options.now ?? Date.now;
  if (options.run === undefined) {
    options.log('run notes off (the terraform run cannot be told on this system): a create reads at apply what its plan read');
    return NO_NOTES;
  }
  const dir = options.dir ?? join(tmpdir(), `cdktf-server-hosting-${userTag()}`);
  const problem = privateFolderProblem(dir);
  if (problem) {
    options.log(`run notes off (${problem}): a create reads at apply what its plan read`);
    return NO_NOTES;
  }
  const run = options.run;
  const prefix = `run-${run}-`;
  const ownName = `${prefix}${options.processId ?? process.pid}.json`;
  const own: Notes = {};
  let others: Notes | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (Object.keys(own).length === 0) return;
    try {
      writeAtomically(dir, ownName, JSON.stringify(own));
      removeStaleFiles(dir);
    } catch (err) {
      options.log(`run notes not written: ${(err as Error).message}`);
    }
  };
  return {
    run,
    get(key, maxAgeMs) {
      others ??= readNotes(dir, prefix, ownName, options.log);
      const note = own[key] ?? others[key];
      const age = note ? now() - note.at : -1;
      return note && age >= 0 && age <= maxAgeMs ? note.value : undefined;
    },
    put(key, value) {
      own[key] = { at: now(), value };
      timer ??= setTimeout(flush, 200).unref();
    },
    flush,
  };
}

const userTag = () => String(process.getuid?.() ?? userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_'));

/**
 * Why `dir` may not hold the notes: made here if missing; a symbolic link, another user's folder or
 * one others may write into is refused (a note decides whether a create reads before it writes).
 */
function privateFolderProblem(dir: string): string | undefined {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return `${dir} could not be made: ${(err as Error).message}`;
  }
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return `${dir} is not a folder`;
    if (process.getuid && (stat.uid !== process.getuid() || (stat.mode & 0o077) !== 0)) return `${dir} is not this user's alone`;
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Through a new file of an unpredictable name (never an existing one, nor a planted link), then renamed into place. */
function writeAtomically(dir: string, name: string, text: string): void {
  const temporary = join(dir, `.${name}.${randomBytes(8).toString('hex')}`);
  writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
  renameSync(temporary, join(dir, name));
}

/** By the files' times, which are the file system's clock. */
function removeStaleFiles(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!/^\.?run-[0-9a-f]+-\d+\.json/.test(name)) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > STALE_FILE_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // Gone already: another run cleaned it.
    }
  }
}

/** Every other process's notes of this terraform process, each file checked: a regular file of this user, bounded, of the right shape. */
function readNotes(dir: string, prefix: string, ownName: string, log: (line: string) => void): Notes {
  const notes: Notes = {};
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.json') || name === ownName) continue;
    const parsed = fileSchema.safeParse(readSmallFile(join(dir, name)));
    if (!parsed.success) {
      log(`run notes: ${name} is not a notes file; not used`);
      continue;
    }
    for (const [key, note] of Object.entries(parsed.data)) if (!notes[key] || notes[key].at < note.at) notes[key] = note;
  }
  return notes;
}

function readSmallFile(file: string): unknown {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW where the platform has it: a link planted in the folder is not followed.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES || (process.getuid && stat.uid !== process.getuid())) return undefined;
    const buffer = Buffer.alloc(stat.size);
    readSync(fd, buffer, 0, stat.size, 0);
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
