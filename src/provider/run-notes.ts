/* eslint-disable no-bitwise -- file modes and open flags are bit fields */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { Value } from './plugin/values';
import { terraformRun } from './run-identity';
import { privateFolderProblem, userFolder } from '../contract/private-folder';

/**
 * What the plan of a `terraform apply` read, for the apply that follows it in the same terraform
 * run. Terraform runs each walk in a new provider process and hands a create's apply nothing of
 * its plan (no prior state, no private data), so without these notes the apply of a created
 * resource reads again what its plan read a moment before, and says again what the plan said.
 *
 * A note, or a read the refresh marked (session.ts), serves the plan that made it and the apply
 * right after that plan, never a later plan of the same terraform process (`terraform test` runs
 * every run block in one): each process of a run that plans for an account says so in its file,
 * and a process trusts only its own notes and reads and those of the run's last process that
 * planned for that account before it. A plan-only run block, or a refresh-less one carrying an
 * older block's read, is such a process, so it breaks the chain. Files are named by the run
 * (run-identity.ts); a saved plan applied by another terraform finds none and reads afresh. The
 * notes are a cache, never an authority: a missing, unreadable or foreign file costs a read.
 */
export interface RunNotes {
  /** The terraform run these notes belong to; undefined when it cannot be told (then nothing is noted or trusted). */
  readonly run?: string;
  /** This provider process, drawn at random: it names the reads it marks. */
  readonly process: string;
  /**
   * This process plans for `account`: a read or note of an earlier process of the run serves no
   * apply after it. Its first call writes the file at once: the apply after this plan must find it.
   */
  planning(account: string): void;
  /** Whether an earlier process of this run planned for `account` (an apply of a plan another run saved has none). */
  plannedEarlier(account: string): boolean;
  /** This process planned `change` (`changeOf`) without an error: an apply of this run may plan it again. */
  plannedChange(change: string): void;
  /**
   * Whether an earlier process of this run may have planned `change` without an error, so that this
   * process may be the apply carrying out that plan. True where it cannot be told: notes off, this
   * process's own file not written (a folder that refused this write may have refused the earlier
   * plan's, which then left no trace), a file of the run that cannot be read, or an earlier
   * planning process that ended without closing its file (it died before Terraform's Shutdown, so
   * its list may be incomplete). A planner still running serves this walk, not an ended one.
   */
  mayHavePlanned(change: string): boolean;
  /** Whether `maker` (a process) made its read for the plan this process applies: this process, or the account's previous planner. */
  ofThisPlan(account: string, maker: string | undefined): boolean;
  /**
   * The value noted under `key` for `account` by this plan, if at most `maxAgeMs` old: this
   * process's, else its previous planner's; with `ownOnly` (a process proven to plan, which carries
   * out no earlier plan: run/walk.ts), this process's alone.
   */
  get(account: string, key: string, maxAgeMs: number, ownOnly?: boolean): unknown;
  put(account: string, key: string, value: unknown): void;
  /**
   * Whether `words` are new to this terraform run, which from now on has said them: a warning
   * every run block of a `terraform test` would repeat word for word is said by the first.
   */
  firstTime(words: string): boolean;
  /** Writes this process's notes now, marked complete (Terraform's Shutdown). */
  close(): void;
}

/** Notes that keep nothing and trust nothing: every create and every apply reads. */
export const NO_NOTES: RunNotes = {
  process: 'none',
  planning: () => undefined,
  plannedEarlier: () => false,
  plannedChange: () => undefined,
  mayHavePlanned: () => true,
  ofThisPlan: () => false,
  get: () => undefined,
  put: () => undefined,
  firstTime: () => true,
  close: () => undefined,
};

/** A notes file larger than this is not read, and proves nothing (a run of 10,000 resources writes about 2 MB, and some 50 bytes a change it planned). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Notes files this old are removed by the next run that writes, unless their terraform still runs. */
const STALE_FILE_MS = 60 * 60 * 1000;

const notesSchema = z.record(z.string(), z.object({ at: z.number(), value: z.unknown() }));
const fileSchema = z.object({
  process: z.string(),
  /** When the process started (epoch milliseconds): the run's processes come one walk after another. */
  startedAt: z.number(),
  /** The accounts it planned for. */
  planned: z.array(z.string()),
  /** The changes it planned without an error (`changeOf`); complete once `closed`. */
  changes: z.optional(z.array(z.string())),
  /** Written at the process's end (Terraform's Shutdown): its lists are complete. */
  closed: z.optional(z.boolean()),
  /** The terraform process of the run: while it runs (an approval prompt may wait for hours), the file stays. */
  terraform: z.optional(z.number()),
  /**
   * This provider process, as `terraformRun` names a process: while it runs, its walk goes on, so it
   * is no plan that an apply of this run carries out (Terraform ends a walk's providers before the next).
   */
  self: z.optional(z.object({ pid: z.number(), identity: z.string() })),
  notes: notesSchema,
  /** Digests of the warnings it said (firstTime). */
  said: z.optional(z.array(z.string())),
});
type NotesFile = z.infer<typeof fileSchema>;

export interface RunNotesOptions {
  /** The terraform run (`terraformRun`); undefined gives NO_NOTES. */
  readonly run: string | undefined;
  /** Where the notes of this user live; default a folder of their own in the system's temporary folder. */
  readonly dir?: string;
  readonly log: (line: string) => void;
  readonly now?: () => number;
  /** This provider process, which names its own file; default process.pid (tests run several in one). */
  readonly processId?: number;
  /** When this process started, epoch milliseconds; default performance.timeOrigin (tests run several in one). */
  readonly startedAt?: number;
  /** The run's terraform process, default this process's parent; with `runOf` it tells a run still going (terraformRun). */
  readonly terraformPid?: number;
  /** What names a running process (`terraformRun`): a terraform still running, a provider process still serving its walk. */
  readonly runOf?: (pid: number) => string | undefined;
}

/** The notes of this provider process, kept in a folder only this user may use; NO_NOTES when it cannot be had safely. */
export function createRunNotes(options: RunNotesOptions): RunNotes {
  const now = options.now ?? Date.now;
  if (options.run === undefined) {
    options.log('run notes off (the terraform run cannot be told on this system): a create reads at apply what its plan read');
    return NO_NOTES;
  }
  const dir = options.dir ?? userFolder('cdktf-server-hosting');
  const problem = privateFolderProblem(dir);
  if (problem) {
    options.log(`run notes off (${problem}): a create reads at apply what its plan read`);
    return NO_NOTES;
  }
  const run = options.run;
  const prefix = `run-${run}-`;
  const ownName = `${prefix}${options.processId ?? process.pid}.json`;
  const own: NotesFile = {
    process: randomBytes(12).toString('base64url'),
    startedAt: options.startedAt ?? performance.timeOrigin,
    planned: [],
    changes: [],
    terraform: options.terraformPid ?? process.ppid,
    ...selfOf(options.processId ?? process.pid, options.runOf ?? terraformRun),
    notes: {},
    said: [],
  };
  const runOf = options.runOf ?? terraformRun;
  let written = false;
  let others: RunFiles | undefined;
  const runFiles = () => (others ??= readFiles(dir, prefix, ownName, options.log));
  const otherFiles = () => runFiles().files;
  const previous = new Map<string, NotesFile | undefined>();
  let endedPlanners: PlannedChanges | undefined;
  /** The run's last process before this one that planned for `account`: its plan is the one this process may apply. */
  const previousPlanner = (account: string): NotesFile | undefined => {
    if (!previous.has(account)) {
      const earlier = otherFiles().filter((f) => f.planned.includes(account) && f.startedAt < own.startedAt);
      previous.set(account, earlier.reduce<NotesFile | undefined>((last, f) => (last && last.startedAt >= f.startedAt ? last : f), undefined));
    }
    return previous.get(account);
  };
  let timer: NodeJS.Timeout | undefined;
  const later = () => {
    timer ??= setTimeout(flush, 200).unref();
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    // A process records changes only once it plans (`planning`), so `planned` speaks for them too.
    if (own.planned.length === 0 && Object.keys(own.notes).length === 0 && own.said?.length === 0) return;
    try {
      writeAtomically(dir, ownName, JSON.stringify(own));
      written = true;
      removeStaleFiles(dir, runOf);
    } catch (err) {
      options.log(`run notes not written: ${(err as Error).message}`);
    }
  };
  const noteKey = (account: string, key: string) => `${account} ${key}`;
  return {
    run,
    process: own.process,
    planning(account) {
      if (own.planned.includes(account)) return;
      own.planned.push(account);
      if (own.planned.length === 1) flush();
      else later();
    },
    plannedEarlier: (account) => previousPlanner(account) !== undefined,
    plannedChange(change) {
      if (own.changes?.includes(change)) return;
      own.changes?.push(change);
      later();
    },
    mayHavePlanned(change) {
      // A planner seen running serves this walk (another provider configuration, a parallel run block), not an ended one.
      endedPlanners ??= recordsOf(otherFiles().filter((f) => f.planned.length > 0 && f.startedAt < own.startedAt && !stillRuns(f, runOf)));
      // A file of the run that cannot be read (too large, damaged) may be the plan's.
      return !written || runFiles().unusable > 0 || endedPlanners.mayHave(change);
    },
    ofThisPlan: (account, maker) => maker !== undefined && (maker === own.process || maker === previousPlanner(account)?.process),
    get(account, key, maxAgeMs, ownOnly = false) {
      const note = own.notes[noteKey(account, key)] ?? (ownOnly ? undefined : previousPlanner(account)?.notes[noteKey(account, key)]);
      const age = note ? now() - note.at : -1;
      return note && age >= 0 && age <= maxAgeMs ? note.value : undefined;
    },
    put(account, key, value) {
      own.notes[noteKey(account, key)] = { at: now(), value };
      later();
    },
    firstTime(words) {
      const digest = createHash('sha256').update(words).digest('base64url');
      if ([own, ...otherFiles()].some((file) => file.said?.includes(digest))) return false;
      own.said?.push(digest);
      later();
      return true;
    },
    close() {
      own.closed = true;
      flush();
    },
  };
}

/** This process as its file names it, where the system tells what names it. */
function selfOf(pid: number, runOf: (pid: number) => string | undefined): Pick<NotesFile, 'self'> {
  const identity = runOf(pid);
  return identity === undefined ? {} : { self: { pid, identity } };
}

/** Whether the provider process of a file still runs: the same process, not another that took its id since. */
function stillRuns(file: NotesFile, runOf: (pid: number) => string | undefined): boolean {
  return file.self !== undefined && runOf(file.self.pid) === file.self.identity;
}

/** What ended planners recorded, indexed: a resource's check is one lookup, however many changes the run planned. */
interface PlannedChanges {
  mayHave(change: string): boolean;
}

function recordsOf(planners: readonly NotesFile[]): PlannedChanges {
  // A planner that did not close its file, or of an earlier version, may have planned any change.
  if (planners.some((f) => !f.closed || f.changes === undefined)) return { mayHave: () => true };
  const recorded = planners.flatMap((f) => f.changes ?? []);
  const exact = new Set(recorded.filter((c) => !c.includes('*')));
  const patterns = recorded.filter((c) => c.includes('*'));
  // A change whose identity is not known yet is compared with every record; those are rare (a plan walk's).
  const candidates = (change: string) => (change.includes('*') ? recorded : patterns);
  return { mayHave: (change) => exact.has(change) || candidates(change).some((c) => sameChange(c, change)) };
}

/**
 * What a PlanResourceChange plans, as the run notes record it: the resource type and its identity
 * in the configuration (`*` where it is not known yet: the apply plans it again once it is).
 */
export function changeOf(typeName: string, identity: readonly Value[]): string {
  return `${typeName} ${identity.map((v) => (typeof v === 'string' ? encodeURIComponent(v) : '*')).join('/')}`;
}

/** Whether a recorded change may be `change`, the same resource: the same type (whose identities have the same parts), identities equal where both are known. */
function sameChange(recorded: string, change: string): boolean {
  const [typeA, idA = ''] = recorded.split(' ');
  const [typeB, idB = ''] = change.split(' ');
  const partsB = idB.split('/');
  return typeA === typeB && idA.split('/').every((part, i) => part === '*' || partsB[i] === '*' || part === partsB[i]);
}

/** Through a new file of an unpredictable name (never an existing one, nor a planted link), then renamed into place. */
function writeAtomically(dir: string, name: string, text: string): void {
  const temporary = join(dir, `.${name}.${randomBytes(8).toString('hex')}`);
  writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
  renameSync(temporary, join(dir, name));
}

/** By the files' times, which are the file system's clock; a run's file stays while its terraform runs. */
function removeStaleFiles(dir: string, runOf: (pid: number) => string | undefined): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const named = /^(\.)?run-([0-9a-f]+)-\d+\.json/.exec(name);
    if (!named) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs <= STALE_FILE_MS) continue;
      if (!named[1] && runGoesOn(join(dir, name), named[2], runOf)) continue;
      rmSync(join(dir, name), { force: true });
    } catch {
      // Gone already: another run cleaned it.
    }
  }
}

/** Whether the terraform process a notes file names is still the run of its name (a pid reused since is another run). */
function runGoesOn(file: string, run: string, runOf: (pid: number) => string | undefined): boolean {
  const terraform = fileSchema.safeParse(readSmallFile(file)).data?.terraform;
  return terraform !== undefined && runOf(terraform) === run;
}

/** Every other process's file of this terraform run, each checked: a regular file of this user, bounded, of the right shape. */
interface RunFiles {
  readonly files: NotesFile[];
  /** How many of the run's files could not be used. */
  readonly unusable: number;
}

function readFiles(dir: string, prefix: string, ownName: string, log: (line: string) => void): RunFiles {
  const files: NotesFile[] = [];
  let unusable = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.json') || name === ownName) continue;
    const parsed = fileSchema.safeParse(readSmallFile(join(dir, name)));
    if (parsed.success) {
      files.push(parsed.data);
    } else {
      unusable++;
      log(`run notes: ${name} is not a notes file; not used`);
    }
  }
  return { files, unusable };
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
