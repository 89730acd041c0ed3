import { createServer } from 'node:http';
import { HostingApiError } from '../../src/api';
import { PROVIDER_SCHEMA } from '../../src/provider/configure';
import { connectionRefusal } from '../../src/provider/connection-test';
import { encodeValue } from '../../src/provider/plugin/values';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { startGrpcProvider, type GrpcProvider } from '../helpers/grpc-provider';
import { useSimulator } from '../helpers/simulator';

/*
 * The token is tested where the API's contract says (GET /connect, section 4.1), in
 * ConfigureProvider, reached as Terraform reaches it: a refusal is that RPC's one error, and its
 * answer serves every later check of the process.
 */
const s = useSimulator();
const BLOCK: ObjectValue = Object.fromEntries(PROVIDER_SCHEMA.block.attributes.map((a: { name: string }) => [a.name, null]));
const providers: GrpcProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});

async function configured(env: Record<string, string>, block: ObjectValue = BLOCK): Promise<GrpcProvider> {
  const clock = { now: s.clock.now, wallClock: s.clock.now, sleep: async (ms: number) => s.clock.advance(ms) };
  const provider = await startGrpcProvider({ env, log: () => undefined, clock }, block);
  providers.push(provider);
  return provider;
}

const connects = () => s.sim.requests.filter((r) => r.path === '/connect').length;

test('a refused token is ConfigureProvider\'s one error, in the variable\'s name, after one request', async () => {
  const provider = await configured({ HOSTING_API_TOKEN: 'hsim_not_a_token_of_this_account', HOSTING_API_URL: s.sim.baseUrl });
  expect(provider.refusals).toEqual([expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(401 unauthorized, request id [\w-]+\): /)]);
  expect(s.sim.requests).toHaveLength(1);
});

test('a token that works is tested once: its scopes and account serve the plan\'s checks without asking again', async () => {
  const provider = await configured({ HOSTING_API_TOKEN: s.sim.tokens['read-only'], HOSTING_API_URL: s.sim.baseUrl });
  expect(provider.refusals).toEqual([]);
  const config = { ...Object.fromEntries(['id', 'rulesets', 'ruleset_names', 'applied_rulesets', 'on_destroy', 'expect_takeover', 'changed_since_plan'].map((n) => [n, null])), server_id: IDS.vpsRunning, enabled: true };
  const value = { msgpack: encodeValue(config) };
  const planned = await provider.call('PlanResourceChange', { type_name: 'hosting_server_firewall', prior_state: { msgpack: encodeValue(null) }, proposed_new_state: value, config: value });
  expect(planned.diagnostics.map((d: { summary: string }) => d.summary)).toEqual([expect.stringMatching(/token "[^"]+" lacks network:write, which changing its firewall needs/)]);
  expect(connects()).toBe(1);
});

test('an API nothing answers at, and one that answers only "unavailable", are one error each, naming the API and where its address came from', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const gone = await configured({ HOSTING_API_TOKEN: s.sim.tokens.full }, { ...BLOCK, base_url: `http://127.0.0.1:${port}/api/v1` });
  expect(gone.refusals).toEqual([expect.stringMatching(new RegExp(`^the API at http://127\\.0\\.0\\.1:${port}/api/v1 could not be reached: .*nothing answers at that address`))]);
  s.sim.addFault({ effect: { type: 'error', status: 503, code: 'temporarily_unavailable' } });
  const down = await configured({ HOSTING_API_TOKEN: s.sim.tokens.full, HOSTING_API_URL: s.sim.baseUrl });
  expect(down.refusals).toEqual([expect.stringMatching(/^the API at http:\/\/127\.0\.0\.1:\d+\/api\/v1 is unavailable: .*no other answer yet: the API is down or in maintenance$/)]);
});

test.each([
  ['network_error', 0, 'the API at https://api.example.com/api/v1 could not be reached: connection refused', 'check base_url in the provider "hosting" block and the network, then run again; nothing was changed'],
  ['unauthorized', 401, 'the token in CI_TOKEN was refused by https://api.example.com/api/v1 (401 unauthorized, request id r1): revoked', 'check that the token in the environment variable CI_TOKEN is valid, not expired and not revoked; nothing was changed'],
  ['ip_not_allowed', 403, 'the token in CI_TOKEN was refused by https://api.example.com/api/v1 (403 ip_not_allowed, request id r1): revoked', 'add the address Terraform runs from to the token\'s allowlist in the control panel; nothing was changed'],
  ['rate_limited', 429, 'the token in CI_TOKEN could not be tested at https://api.example.com/api/v1 (GET /connect, 429 rate_limited, request id r1: revoked)', 'run again shortly; if it persists, quote the request id to the hosting provider\'s support; nothing was changed'],
] as const)('%s: the words of the one error', (code, status, summary, detail) => {
  const err = new HostingApiError({ status, code, method: 'GET', path: '/connect', detail: code === 'network_error' ? 'connection refused' : 'revoked', requestId: status ? 'r1' : undefined });
  expect(connectionRefusal(err, { tokenEnvVar: 'CI_TOKEN', baseUrlFrom: 'base_url in the provider "hosting" block' }, 'https://api.example.com/api/v1')).toEqual({ severity: 1, summary, detail, attribute: undefined });
});
