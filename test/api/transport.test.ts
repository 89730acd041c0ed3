import { HostingApiClient } from '../../src/api/client';
import { tcpKeepAliveSetting } from '../../src/api/transport';
import { configureProvider } from '../../src/provider/configure';
import { startSimulator } from '../../src/simulator';

/*
 * HOSTING_API_TCP_KEEPALIVE: `off` for sockets that refuse TCP keep-alive (Wine's: every
 * connection fails with UNKNOWN otherwise), `on` or unset for undici's default.
 */

test.each([[undefined, undefined], ['', undefined], ['on', true], ['off', false]])('%j reads as %j', (value, setting) => {
  expect(tcpKeepAliveSetting(value, 'HOSTING_API_TCP_KEEPALIVE')).toBe(setting);
});

test.each(['0', 'false', 'OFF', 'no'])('%j is refused, naming the variable and the values', (value) => {
  expect(() => tcpKeepAliveSetting(value, 'HOSTING_API_TCP_KEEPALIVE'))
    .toThrow(`HOSTING_API_TCP_KEEPALIVE is ${JSON.stringify(value)}: use "off" (no TCP keep-alive probes) or "on" (the default)`);
});

test('a long value, a token pasted into the wrong variable, is refused without being shown', () => {
  const token = 'hsk_live_Zx9Qw7Er5Ty3Ui1Op2As4Df6Gh8Jk0Lz';
  expect(() => tcpKeepAliveSetting(token, 'HOSTING_API_TCP_KEEPALIVE')).toThrow(/^HOSTING_API_TCP_KEEPALIVE is neither "off" nor "on" \(its value is not shown\): use "off"/);
  expect(() => tcpKeepAliveSetting(token, 'HOSTING_API_TCP_KEEPALIVE')).not.toThrow(token);
});

test('with keep-alive probes off, the client reads the account as before', async () => {
  const sim = await startSimulator({ port: 0 });
  const client = new HostingApiClient({ baseUrl: sim.baseUrl, token: sim.tokens.full, tcpKeepAlive: false });
  try {
    expect((await client.listServers()).data.length).toBeGreaterThan(0);
  } finally {
    await client.close();
    await sim.close();
  }
});

test('the provider refuses an unknown HOSTING_API_TCP_KEEPALIVE at configure, in Terraform\'s words', async () => {
  const configured = await configureProvider({ base_url: 'http://127.0.0.1:1/api/v1' }, {
    env: { HOSTING_API_TOKEN: 'hsim_secret', HOSTING_API_TCP_KEEPALIVE: 'false' },
    log: () => undefined,
  }, new AbortController().signal);
  expect(configured.diagnostics.map((d) => d.summary)).toEqual([
    'HOSTING_API_TCP_KEEPALIVE is "false": use "off" (no TCP keep-alive probes) or "on" (the default)',
  ]);
});
