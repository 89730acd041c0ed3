import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
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

  /** A folder private to this user; another user's folder of that name is not written into. */
  private prepareFolder(): boolean {
    if (!this.folderReady) {
      try {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        this.folderReady = true;
      } catch {
        return false;
      }
    }
    return true;
  }

  private read(): Budgets {
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Budgets;
      return parsed && typeof parsed === 'object' ? parsed : {};
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
