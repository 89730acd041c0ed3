import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { privateFolderProblem, userFolder } from '../contract/private-folder';

/** Budgets the server reports per request class (section 8): actions have their own, tighter one. */
export type BudgetClass = 'request' | 'action';

export interface Budget {
  remaining: number;
  /** Wall-clock milliseconds: shared between processes, so never a per-process monotonic clock. */
  resetAtMs: number;
  /** Set while one request finds out a window nothing is known of: the others wait for its answer (rate-limit-pacer.ts). */
  probe?: true;
  /** The processes that reserved from this window here (a few): another's requests are counted here already. */
  by?: number[];
}

export type Budgets = Partial<Record<BudgetClass, Budget>>;

/** Where the pacer keeps what it knows of the budgets; `update` is atomic for its callers. */
export interface BudgetStore {
  update<T>(change: (budgets: Budgets) => T): T;
}

/** One process's knowledge only. */
export class MemoryBudgetStore implements BudgetStore {
  private readonly budgets: Budgets = {};

  public update<T>(change: (budgets: Budgets) => T): T {
    return change(this.budgets);
  }
}

/**
 * A small JSON file shared by every process that uses the same API and token, so the handler
 * processes of one `terraform apply` pace themselves as one client: each reserves a request from
 * the shared figure before sending, and every answer's `RateLimit-*` headers correct it. Updates
 * hold an exclusive lock file, waited for as long as an update takes (a lock older than that was
 * left by a killed process, and is broken), and replace the file atomically (write, then rename).
 * Pacing only avoids 429s, so any trouble with the file degrades to this process's own knowledge,
 * never to a failed request, and says so once in the log.
 */
export class FileBudgetStore implements BudgetStore {
  private readonly fallback = new MemoryBudgetStore();
  private readonly lockPath: string;
  private folderReady = false;
  /** Sharing was given up: this process paces alone from then on, and said so once. */
  private pacesAlone = false;

  constructor(private readonly path: string, private readonly log: (line: string) => void = () => undefined) {
    this.lockPath = `${path}.lock`;
  }

  public update<T>(change: (budgets: Budgets) => T): T {
    if (this.pacesAlone) return this.fallback.update(change);
    const problem = this.folderProblem() ?? (this.lock() ? undefined : `its lock ${this.lockPath} could not be taken`);
    if (problem) return this.alone(problem, change);
    try {
      const budgets = this.read();
      const result = change(budgets);
      const temp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(budgets), { mode: 0o600 });
      renameSync(temp, this.path);
      return result;
    } catch (err) {
      return this.alone(`it could not be written: ${(err as Error).message}`, change);
    } finally {
      this.unlock();
    }
  }

  /**
   * This process's own knowledge from now on, said once: a folder it may not use or a lock it cannot
   * take would cost every later request the same wait for nothing.
   */
  private alone<T>(problem: string, change: (budgets: Budgets) => T): T {
    this.log(`rate-limit pacing is not shared with other processes (${problem}): this process paces alone`);
    this.pacesAlone = true;
    return this.fallback.update(change);
  }

  /**
   * A folder of this user's alone (contract/private-folder.ts): a budget planted in another's
   * would hold this process back. Checked once, and then swept of files long unused.
   */
  private folderProblem(): string | undefined {
    if (this.folderReady) return undefined;
    const problem = privateFolderProblem(dirname(this.path));
    this.folderReady = problem === undefined;
    if (this.folderReady) removeStaleBudgets(dirname(this.path), Date.now());
    return problem;
  }

  /** What the file holds, each budget checked: anything else is no knowledge. */
  private read(): Budgets {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      const budgets: Budgets = {};
      for (const cls of ['request', 'action'] as const) {
        const budget = (parsed as Record<string, unknown> | null)?.[cls];
        if (!isBudget(budget)) continue;
        const by = Array.isArray(budget.by) && budget.by.every(Number.isInteger) ? budget.by.slice(0, MAX_RESERVERS) : undefined;
        budgets[cls] = { remaining: budget.remaining, resetAtMs: budget.resetAtMs, ...(budget.probe === true && { probe: true }), ...(by && { by }) };
      }
      return budgets;
    } catch {
      return {};
    }
  }

  /**
   * Waits for the lock while its holder may still be updating: an update takes well under a
   * millisecond, so a lock older than STALE_LOCK_MS was left by a killed process and is broken, and
   * so is one dated more than that ahead of the clock (the clock stepped back since a holder took it:
   * such a lock would never age). Gives up when the lock cannot be made at all (a folder gone, say),
   * or after twice that long: the process then paces alone.
   */
  private lock(): boolean {
    const giveUpAt = Date.now() + 2 * STALE_LOCK_MS;
    for (let pause = 1; Date.now() < giveUpAt; pause = Math.min(pause * 2, 16)) {
      try {
        closeSync(openSync(this.lockPath, 'wx', 0o600));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
        if (Math.abs(lockAgeMs(this.lockPath)) > STALE_LOCK_MS) this.unlock();
        else Atomics.wait(PAUSE, 0, 0, pause);
      }
    }
    return false;
  }

  private unlock(): void {
    try {
      unlinkSync(this.lockPath);
    } catch {
      // Already gone: a peer broke a stale lock.
    }
  }
}

/** How many reserving processes a window records: enough to tell this process from others. */
export const MAX_RESERVERS = 8;

/** How old a lock is when its holder is taken to be dead: far longer than any update holds it. */
export const STALE_LOCK_MS = 2_000;

/**
 * A budget file untouched this long knows nothing: no figure resets more than two minutes ahead
 * (rate-limit-pacer.ts). Swept so, the folder holds the files of the tokens used in the last few
 * minutes, not of every token a pipeline or a test suite was ever issued.
 */
export const STALE_BUDGET_MS = 5 * 60 * 1000;

/** This store's own files: a budget (its name a hash), its lock, and a write a killed process left before its rename. */
const BUDGET_FILE = /^[A-Za-z0-9_-]{32}\.json(\.lock|\.\d+\.tmp)?$/;

/** By the files' times; another name in the folder is never touched. */
function removeStaleBudgets(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.filter((n) => BUDGET_FILE.test(n))) {
    try {
      if (now - statSync(join(dir, name)).mtimeMs > STALE_BUDGET_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // Gone already: another process swept it.
    }
  }
}

function isBudget(value: unknown): value is Budget {
  const budget = value as Budget | null | undefined;
  return typeof budget?.remaining === 'number' && Number.isFinite(budget.remaining) && typeof budget.resetAtMs === 'number' && Number.isFinite(budget.resetAtMs);
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function lockAgeMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * The shared budget file of one API and token, in this user's folder of the temporary directory
 * (another user's processes share theirs). Its name is a truncated hash of both, so the path
 * reveals neither.
 */
export function sharedBudgetFile(baseUrl: string, token: string, dir = userFolder('cdktf-server-hosting-pacing')): string {
  const id = createHash('sha256').update(`cdktf-server-hosting/pacing\n${baseUrl}\n${token}`).digest('base64url').slice(0, 32);
  return join(dir, `${id}.json`);
}
