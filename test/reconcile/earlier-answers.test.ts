import { MAX_EARLIER_ANSWERS, planPowerState, rebootServer, type ReconcileContext } from '../../src/reconcile';
import * as fx from '../helpers/fixtures';
import { apiError, mockClient } from '../helpers/mock-api';

/*
 * The power actions' walk past answers earlier runs left under the same keys, in process, with
 * plain answers: an API that replays a refusal for every key, even keys no run ever sent, is
 * walked past a bounded number of times, and the refusal says what the API answered.
 */

const SERVER = `/servers/${fx.VPS_ID}`;
const TIMEOUTS = { readySeconds: 60, operationSeconds: 60 };
const ANSWERS = MAX_EARLIER_ANSWERS + 1;

function contextOf(m: ReturnType<typeof mockClient>): ReconcileContext {
  const nothing = () => undefined;
  return { client: m.client, intent: 'intent_1', tokenEnvVar: 'HOSTING_API_TOKEN', log: nothing, warn: nothing, sleep: async () => undefined, now: () => 0, deadlineAt: Infinity };
}

/** Each action refused with a 409 the API says it replays, the server read running around it. */
function refusedUnderEveryKey(): ReturnType<typeof mockClient> {
  const m = mockClient();
  for (let i = 0; i < ANSWERS; i++) {
    m.reply('GET', SERVER, 200, { data: fx.serverDetail });
    m.reply('POST', `${SERVER}/actions`, 409, apiError('action_unsupported'), { 'idempotent-replayed': 'true' });
  }
  return m;
}

const refusal = (run: Promise<unknown>) => run.then(() => undefined, (err: Error & { hint?: string }) => ({ message: err.message, hint: err.hint }));
const REPLAYED = 'the API replayed 409 action_unsupported stored for this key by an earlier run (request id req_err_1)';

test('a reboot walks past MAX_EARLIER_ANSWERS of them, then says what the API answered, not that another client is busy', async () => {
  const m = refusedUnderEveryKey();
  const target = { label: `reboot ${fx.VPS_ID}`, kind: 'reboot' as const, serverId: fx.VPS_ID, timeouts: TIMEOUTS };
  const error = await refusal(rebootServer(contextOf(m), target, false));
  expect(m.requests.filter((r) => r.method === 'POST')).toHaveLength(ANSWERS);
  expect(error).toEqual({ message: `reboot ${fx.VPS_ID}: reboot met answers of earlier runs ${ANSWERS} times: ${REPLAYED}`, hint: 'check the server in the control panel before applying again' });
});

test('a stop walks past MAX_EARLIER_ANSWERS of them, reading the server after each, then refuses', async () => {
  const m = refusedUnderEveryKey();
  const spec = { kind: 'power_state' as const, serverId: fx.VPS_ID, desired: { state: 'stopped' as const }, stopMethod: 'shutdown' as const, forceStopFallback: false, timeouts: TIMEOUTS };
  const plan = await planPowerState(contextOf(m), spec, fx.serverDetail as never);
  const error = await refusal(plan.apply());
  expect(m.requests.filter((r) => r.method === 'POST')).toHaveLength(ANSWERS);
  expect(error).toEqual({ message: `power ${fx.VPS_ID}: shutdown met answers of earlier runs ${ANSWERS} times and the server is still running`, hint: 'check the server in the control panel before applying again' });
});
