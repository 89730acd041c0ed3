import { HostingApiError } from '../../src/api';
import { FirstAnswerGate } from '../../src/api/first-answer-gate';

const refused = () => new HostingApiError({ status: 401, code: 'unauthorized', method: 'GET', path: '/servers', detail: 'revoked', requestId: 'req_1' });
const unreachable = () => new HostingApiError({ status: 0, code: 'network_error', method: 'GET', path: '/servers', detail: 'nothing answers' });
const notAllowedFrom = () => new HostingApiError({ status: 403, code: 'ip_not_allowed', method: 'GET', path: '/servers', detail: 'not from 203.0.113.9' });
const apiDown = () => new HostingApiError({ status: 503, code: 'temporarily_unavailable', method: 'GET', path: '/servers', detail: 'maintenance', apiDown: true });
const notFound = () => new HostingApiError({ status: 404, code: 'not_found', method: 'GET', path: '/servers/x', detail: 'no such server' });

/** Sends that each wait for the test to answer them, counting how many were in flight at once. */
function sender() {
  let inFlight = 0;
  let most = 0;
  const pending: Array<{ resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
  const send = () => new Promise<string>((resolve, reject) => {
    most = Math.max(most, ++inFlight);
    pending.push({ resolve: (v) => (inFlight--, resolve(v)), reject: (e) => (inFlight--, reject(e)) });
  });
  return { send, pending, most: () => most, sent: () => pending.length };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the first answer gate: a refusal of every request is met once', () => {
  test.each([['a refused token', refused], ['a token not allowed from this address', notAllowedFrom], ['an API nothing answers at', unreachable], ['an API down before any answer', apiDown]])('%s: one request is sent, and every caller waiting gets the same error', async (_name, error) => {
    const gate = new FirstAnswerGate();
    const api = sender();
    const calls = Array.from({ length: 5 }, () => gate.through(api.send));
    const settled = Promise.allSettled(calls);
    await tick();
    expect(api.sent()).toBe(1);
    const first = error();
    api.pending[0].reject(first);
    // Before awaiting the callers: a gate that forgot the refusal has sent their requests by now, and fails here, not on the test's time limit.
    await tick();
    await tick();
    expect(api.sent()).toBe(1);
    const outcomes = await settled;
    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason)).toEqual(Array(5).fill(first));
    expect(api.sent()).toBe(1);
    // Later callers do not ask either.
    await expect(gate.through(api.send)).rejects.toBe(first);
    expect(api.sent()).toBe(1);
  });

  test.each([['an answer', (p: { resolve: (v: string) => void }) => p.resolve('ok')], ['a refusal of one request (404)', (p: { reject: (e: unknown) => void }) => p.reject(notFound())]])(
    'after %s the gate opens: the waiting callers are sent together', async (_name, answer) => {
      const gate = new FirstAnswerGate();
      const api = sender();
      const calls = Array.from({ length: 4 }, () => gate.through(api.send).catch(() => 'failed'));
      await tick();
      expect(api.sent()).toBe(1);
      answer(api.pending[0] as any);
      await tick();
      expect(api.sent()).toBe(4);
      expect(api.most()).toBe(3);
      api.pending.slice(1).forEach((p) => p.resolve('ok'));
      await Promise.all(calls);
    });
});
