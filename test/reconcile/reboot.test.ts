import { MAX_EARLIER_ANSWERS, rebootServer, type ReconcileContext } from '../../src/reconcile';
import * as fx from '../helpers/fixtures';
import { apiError, mockClient } from '../helpers/mock-api';

/*
 * rebootServer in process, with plain answers: an API that replays a refusal for every key, even
 * keys no run ever sent, ends the walk past earlier runs' answers with its own words.
 */

const ACTIONS = `/servers/${fx.VPS_ID}/actions`;
const TARGET = { label: `reboot ${fx.VPS_ID}`, kind: 'reboot' as const, serverId: fx.VPS_ID, timeouts: { readySeconds: 60, operationSeconds: 60 } };

function contextOf(m: ReturnType<typeof mockClient>): ReconcileContext {
  const nothing = () => undefined;
  return { client: m.client, intent: 'intent_1', tokenEnvVar: 'HOSTING_API_TOKEN', log: nothing, warn: nothing, sleep: async () => undefined, now: () => 0, deadlineAt: Infinity };
}

test('refusals replayed under every key end the reboot after MAX_EARLIER_ANSWERS, saying what the API answered, not blaming another client', async () => {
  const m = mockClient();
  const answers = MAX_EARLIER_ANSWERS + 1;
  for (let i = 0; i < answers; i++) {
    m.reply('GET', `/servers/${fx.VPS_ID}`, 200, { data: fx.serverDetail });
    m.reply('POST', ACTIONS, 409, apiError('action_unsupported'), { 'idempotent-replayed': 'true' });
  }
  const error = await rebootServer(contextOf(m), TARGET, false).then(() => undefined, (err: Error & { hint?: string }) => err);
  expect(m.requests.filter((r) => r.method === 'POST')).toHaveLength(answers);
  expect(error?.message).toBe(
    `reboot ${fx.VPS_ID}: reboot met answers of earlier runs ${answers} times: the API replayed 409 action_unsupported stored for this key by an earlier run (request id req_err_1)`,
  );
  expect(error?.hint).toBe('check the server in the control panel before applying again');
});
