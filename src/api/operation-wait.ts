import type { Operation } from './schemas';

export interface OperationWaitOptions {
  /** Give up (with `deadline_exceeded`) after this long. */
  readonly timeoutMs: number;
  readonly initialIntervalMs: number;
  readonly maxIntervalMs: number;
  /** Each interval is the previous one times this. */
  readonly growth: number;
  /** Called with every status read, for progress lines. */
  readonly onPoll?: (operation: Operation) => void;
}

export const DEFAULT_OPERATION_WAIT: OperationWaitOptions = {
  timeoutMs: 10 * 60_000,
  initialIntervalMs: 1_000,
  maxIntervalMs: 10_000,
  growth: 1.5,
};

/** Quick answers are seen quickly; long operations do not spend the shared request budget. */
export function nextPollIntervalMs(current: number, options: Pick<OperationWaitOptions, 'maxIntervalMs' | 'growth'>): number {
  return Math.min(options.maxIntervalMs, Math.round(current * options.growth));
}
