import * as fx from '../helpers/fixtures';
import { apiError, mockClient, SENTINEL_TOKEN } from '../helpers/mock-api';

const FW = `/servers/${fx.VPS_ID}/firewall`;

test('the sentinel token appears in no error text, error JSON or log line, whatever fails', async () => {
  const m = mockClient({ retry: { maxAttempts: 2 } });
  const failures: unknown[] = [];
  const attempt = async (fn: () => Promise<unknown>) => failures.push(await fn().then(() => 'ok', (e) => e));

  m.reply('GET', FW, 200, { data: { enabled: true, rulesets: [] } });
  await m.client.getFirewall(fx.VPS_ID);
  m.fail('PUT', FW);
  m.fail('PUT', FW);
  await attempt(() => m.client.updateFirewall(fx.VPS_ID, { enabled: true }, 'key-0123456789'));
  m.reply('GET', FW, 200, { data: { enabled: SENTINEL_TOKEN, rulesets: [] } });
  await attempt(() => m.client.getFirewall(fx.VPS_ID));
  m.reply('GET', FW, 500, `<html>${SENTINEL_TOKEN}</html>`);
  m.reply('GET', FW, 500, `<html>${SENTINEL_TOKEN}</html>`);
  await attempt(() => m.client.getFirewall(fx.VPS_ID));
  await attempt(() => m.client.updateFirewall(fx.VPS_ID, { enabled: true }, 'short'));
  // A refused token, its message and fields echoing it.
  m.reply('GET', FW, 401, apiError('unauthorized', `token ${SENTINEL_TOKEN} is revoked`, {
    fields: [{ path: 'authorization', message: `Bearer ${SENTINEL_TOKEN}` }],
  }));
  await attempt(() => m.client.getFirewall(fx.VPS_ID));

  expect(failures).toHaveLength(5);
  for (const failure of failures) {
    expect(failure).toBeInstanceOf(Error);
    const text = [String(failure), (failure as Error).message, (failure as Error).stack, JSON.stringify(failure)].join('\n');
    expect(text).not.toContain(SENTINEL_TOKEN);
  }
  expect(m.logs.length).toBeGreaterThan(5);
  expect(m.logs.join('\n')).not.toContain(SENTINEL_TOKEN);
  expect(JSON.stringify(failures.at(-1))).toContain('[redacted]');
});
