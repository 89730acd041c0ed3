import type { HostingApiError } from '../api/errors';

/**
 * A failure a person can act on: what failed, the API's code, status and request id when the API
 * said no, and what to do next. Never carries a secret: API errors are already scrubbed.
 */
export class ReconcileError extends Error {
  constructor(
    public readonly summary: string,
    public readonly hint: string,
    public readonly apiError?: HostingApiError,
  ) {
    super(summary);
    this.name = 'ReconcileError';
  }

  /** Lines for Terraform's log. */
  public describe(): string[] {
    const lines = [this.summary];
    if (this.apiError) {
      const e = this.apiError;
      lines.push(`  API: ${e.status === 0 ? 'no response' : e.status} ${e.code}${e.requestId ? ` (request id ${e.requestId})` : ''}: ${e.detail}`);
      for (const field of e.fields) lines.push(`  field ${field.path}: ${field.message}`);
    }
    lines.push(`  what to do: ${this.hint}`);
    return lines;
  }
}
