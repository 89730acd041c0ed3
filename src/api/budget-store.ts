import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Budgets the server reports per request class (section 8): actions have their own, tighter one. */
export type BudgetClass = 'request' | 'action';

export interface Budget {
  remaining: number;
  /** Wall-clock milliseconds: shared between processes, so never a per-process monotonic clock. */
  resetAtMs: number;
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
 * hold an exclusive lock file and replace the file atomically (write, then rename). Pacing only
 * avoids 429s, so any trouble with the file degrades to this process's own knowledge, never to a
 * failed request.
 */
export class FileBudgetStore implements BudgetStore {
  private readonly fallback = new MemoryBudgetStore();
  private readonly lockPath: string;
  private folderReady = false;

  constructor(private readonly path: string) {
    this.lockPath = `${path}.lock`;
  }

  public update<T>(change: (budgets: Budgets) => T): T {
    if (!this.prepareFolder() || !this.lock()) return this.fallback.update(change);
    try {
      const budgets = this.read();
      const result = change(budgets);
      const temp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(budgets), { mode: 0o600 });
      renameSync(temp, this.path);
      return result;
    } catch {
      return this.fallback.update(change);
    } finally {
      this.unlock();
    }
  }

  /**
   * A folder of this user's alone: in a shared temporary directory another user may have made one
   * of that name first, and a budget planted there would hold this process back. Anything else
   * degrades to this process's own knowledge.
   */
  private prepareFolder(): boolean {
    if (!this.folderReady) {
      try {
        const folder = dirname(this.path);
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        this.folderReady = isOwnPrivateFolder(folder);
      } catch {
        return false;
      }
    }
    return this.folderReady;
  }

  /** What the file holds, each budget checked: anything else is no knowledge. */
  private read(): Budgets {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      const budgets: Budgets = {};
      for (const cls of ['request', 'action'] as const) {
        const budget = (parsed as Record<string, unknown> | null)?.[cls];
        if (isBudget(budget)) budgets[cls] = { remaining: budget.remaining, resetAtMs: budget.resetAtMs };
      }
      return budgets;
    } catch {
      return {};
    }
  }

  /** Waits up to ~200 ms for the lock; a lock older than 2 s was left by a killed process. */
  private lock(): boolean {
    for (let tries = 0; tries < 200; tries++) {
      try {
        closeSync(openSync(this.lockPath, 'wx', 0o600));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
        if (lockAgeMs(this.lockPath) > 2_000) this.unlock();
        else Atomics.wait(PAUSE, 0, 0, 1);
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

function isBudget(value: unknown): value is Budget {
  const budget = value as Budget | null | undefined;
  return typeof budget?.remaining === 'number' && Number.isFinite(budget.remaining) && typeof budget.resetAtMs === 'number' && Number.isFinite(budget.resetAtMs);
}

/** On Windows the temporary directory is each user's own, and modes say nothing. */
function isOwnPrivateFolder(folder: string): boolean {
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) return false;
  if (process.platform === 'win32' || process.getuid === undefined) return true;
  // eslint-disable-next-line no-bitwise -- file modes are bit fields
  return stat.uid === process.getuid() && (stat.mode & 0o077) === 0;
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
 * The shared budget file of one API and token, in a folder of the temporary directory. Its name is
 * a truncated hash of both, so the path reveals neither.
 */
export function sharedBudgetFile(baseUrl: string, token: string, dir = join(tmpdir(), 'cdktf-server-hosting-pacing')): string {
  const id = createHash('sha256').update(`cdktf-server-hosting/pacing\n${baseUrl}\n${token}`).digest('base64url').slice(0, 32);
  return join(dir, `${id}.json`);
}
