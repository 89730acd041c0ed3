import { HostingApiError } from './errors';

/** Refusals of the token itself: every later request would get the same answer. */
const TOKEN_REFUSALS = new Set(['unauthorized', 'ip_not_allowed']);

/** An answer that the API is unavailable, its own or a gateway's in front of it. */
export const isUnavailable = (err: HostingApiError): boolean =>
  err.code === 'temporarily_unavailable' || (err.code === 'unexpected_status' && [502, 503, 504].includes(err.status));

/**
 * Whether `err` refuses every request this client could send: a refused token, an API nothing
 * answers at, or one that answered only that it is unavailable before any other answer (each
 * after the client's own retries).
 */
export const refusesEveryRequest = (err: unknown): err is HostingApiError =>
  err instanceof HostingApiError && (TOKEN_REFUSALS.has(err.code) || err.code === 'network_error' || err.apiDown);

/**
 * Until the API has answered a client once, one request at a time. A refused token, or an API
 * nothing answers at, is then met by one request however many resources ask at once, and every
 * request after it fails with that same error (the same request id) without asking; the first
 * answer of any other kind opens the gate for good. Shared by every view of one client
 * (`withDeadline`), like the pacer. Costs nothing after the first answer, and no request ever.
 */
export class FirstAnswerGate {
  #open = false;
  #refusal: HostingApiError | undefined;
  #probe: Promise<unknown> | undefined;

  /** `send` is told whether its request is the probe: the first, which no answer has come before. */
  public async through<T>(send: (probe: boolean) => Promise<T>): Promise<T> {
    for (;;) {
      if (this.#refusal) throw this.#refusal;
      if (this.#open) return send(false);
      if (!this.#probe) break;
      await this.#probe.catch(() => undefined);
    }
    const probe = send(true);
    this.#probe = probe;
    try {
      const answer = await probe;
      this.#open = true;
      return answer;
    } catch (err) {
      if (refusesEveryRequest(err)) this.#refusal = err;
      else this.#open = true;
      throw err;
    } finally {
      this.#probe = undefined;
    }
  }
}
