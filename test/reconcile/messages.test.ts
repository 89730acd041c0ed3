import type { ApiResponse } from '../../src/api/client';
import { HostingApiError } from '../../src/api/errors';
import type { Firewall } from '../../src/api/schemas';
import { confirmWrite, explainApiError, type ReconcileContext } from '../../src/reconcile/context';
import { ReconcileError } from '../../src/reconcile/reconcile-error';
import { sincePlanRefusal, sincePlanWarning } from '../../src/reconcile/since-plan';

const ctx = { tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, warn: () => undefined } as unknown as ReconcileContext;
const invalid = (requestId?: string) =>
  new HostingApiError({ status: 200, code: 'invalid_response', detail: 'the body is not JSON', method: 'GET', path: '/servers', requestId });

/** Never blame the API without the request id to quote, and never ask for a request id the message does not carry. */
describe('what an error asks the person to report', () => {
  test('a request id is asked for only when the error carries one', async () => {
    await expect(explainApiError(ctx, 'reading', invalid('req_1'), [])).rejects.toMatchObject({ hint: expect.stringContaining('report request id req_1 to support') });
    const without = await explainApiError(ctx, 'reading', invalid(), []).catch((e: ReconcileError) => e);
    expect(without.hint).toContain('report the time of this run to support');
    expect(without.hint).not.toContain('request id');
  });

  test('an answer that shows its own write not made names the request id it quotes', async () => {
    const off: Firewall = { enabled: false, rulesets: [] };
    const answer = (requestId?: string): ApiResponse<Firewall> => ({ data: off, replayed: false, attempt: 1, requestId });
    const step = (requestId?: string) => ({
      label: 'firewall vps_web_1',
      write: async () => answer(requestId),
      read: async () => ({ enabled: false, rulesets: [] }),
      pending: (fw: Firewall) => (fw.enabled ? [] : ['enabled false -> true']),
      explain: async (err: unknown): Promise<never> => {
        throw err;
      },
    });
    const withId = await confirmWrite(ctx, step('req_9')).catch((e: ReconcileError) => e);
    expect(withId.summary).toBe('firewall vps_web_1: the API accepted the change (request id req_9) but its answer shows enabled false -> true still to do');
    expect(withId.hint).toContain('report request id req_9 to support');
    const withoutId = await confirmWrite(ctx, step()).catch((e: ReconcileError) => e);
    expect(withoutId.hint).not.toContain('request id');
  });
});

test('what moved since the plan, each value: set back, set as planned, or already as planned', () => {
  expect(sincePlanWarning('firewall vps_web_1', [])).toBeUndefined();
  expect(sincePlanWarning('firewall vps_web_1', [
    { name: 'enabled', shown: 'true', actual: 'false', desired: 'true', reached: false },
    { name: 'rulesets', shown: '[11]', actual: '[13]', desired: '[11, 12]', reached: false },
    { name: 'description', shown: '"a"', actual: '"b"', desired: '"b"', reached: true },
  ])).toBe('firewall vps_web_1: changed since the plan: enabled true -> false (set back to true), rulesets [11] -> [13] (set to [11, 12] as planned), description "a" -> "b" (now as planned)');
});

test('changed_since_plan = "fail": what would be written over is refused in the warning\'s words; what is already as planned is no refusal', () => {
  const moved = [
    { name: 'enabled', shown: 'true', actual: 'false', desired: 'true', reached: false },
    { name: 'description', shown: '"a"', actual: '"b"', desired: '"b"', reached: true },
  ];
  expect(sincePlanRefusal('firewall vps_web_1', moved)?.summary).toBe('firewall vps_web_1: changed since the plan: enabled true -> false; left as it is, and nothing was written (changed_since_plan = "fail")');
  expect(sincePlanRefusal('firewall vps_web_1', moved, true)?.summary).toBe('firewall vps_web_1: changed since the plan: enabled true -> false; left as it is, after the planned changes were written (changed_since_plan = "fail")');
  expect(sincePlanRefusal('firewall vps_web_1', moved.slice(1))).toBeUndefined();
});
