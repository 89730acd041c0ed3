import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { ipDoc, useHandler } from '../helpers/handler';

const h = useHandler();
const DED = IDS.dedicated;

test('in sync: one request, no write', async () => {
  const run = await h.run('apply', ipDoc(DED, IPS.primary, { rdns: 'METAL-1.example.com.', description: 'primary' }));
  expect(run.stdout).toEqual([`ip settings ${DED} ${IPS.primary}: in sync`]);
  expect(run.requests).toHaveLength(1);
});

test('each changed field is one PATCH with one member; unchanged and unmanaged fields are not sent', async () => {
  const run = await h.run('apply', ipDoc(DED, IPS.secondary, { rdns: 'web2.example.com', description: 'web', protection: { layer4: 'dynamic', layer7: 'off' } }));
  expect(run.code).toBe(0);
  expect(run.stdout[0]).toBe(`ip settings ${DED} ${IPS.secondary}: rdns none -> "web2.example.com", description none -> "web"`);
  expect(run.requests.map((r) => r.method)).toEqual(['GET', 'PATCH', 'PATCH']);
  expect(h.sim.executed().map((w) => w.detail)).toEqual(['{"rdns":"web2.example.com"}', '{"description":"web"}']);
});

test('protection, both layers', async () => {
  const run = await h.run('apply', ipDoc(DED, IPS.primary, { protection: { layer4: 'permanent', layer7: 'only' } }));
  expect(run.stdout[0]).toBe(`ip settings ${DED} ${IPS.primary}: protection dynamic/off -> permanent/only`);
  expect(h.sim.executed().map((w) => w.detail)).toEqual(['{"protection":{"layer4":"permanent","layer7":"only"}}']);
});

test('a non-editable field fails before any write, naming the field, even when another field could be written', async () => {
  const run = await h.run('apply', ipDoc(DED, IPS.locked, { rdns: 'mine.example.com', description: 'ok' }));
  expect(run.code).toBe(1);
  expect(run.stderr).toEqual([
    `error: ip settings ${DED} ${IPS.locked}: rdns is not editable for this address; nothing was changed`,
    '  what to do: remove rdns from the configuration, or ask the hosting provider to make it editable',
  ]);
  expect(run.writes).toEqual([]);
});

test('a lost PATCH response is replayed, executed once; the next field goes on', async () => {
  h.sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', times: 1, effect: { type: 'drop_response' } });
  const run = await h.run('apply', ipDoc(DED, IPS.secondary, { rdns: 'web2.example.com', description: 'web' }));
  expect(run.code).toBe(0);
  expect(run.requests.map((r) => `${r.method}${r.dropped ? ' (dropped)' : ''}${r.replayed ? ' (replayed)' : ''}`)).toEqual(['GET', 'PATCH (dropped)', 'PATCH (replayed)', 'GET', 'PATCH']);
  expect(h.sim.executed()).toHaveLength(2);
});

test('a server that is not dedicated is refused before any request, as at synth time', async () => {
  const run = await h.run('apply', ipDoc(IDS.vpsRunning, '198.51.100.11', { rdns: 'a.example.com' }));
  expect(run.code).toBe(64);
  expect(run.stderr[0]).toBe('error: the resource document is invalid: serverId: must be a dedicated server (ded_…): IP settings exist only for dedicated servers');
  expect(run.requests).toEqual([]);
});

test('a description the API refuses fails at apply with its own field message; every line quotes it cut short (the spec states no length)', async () => {
  const long = 'x'.repeat(1001);
  const run = await h.run('apply', ipDoc(DED, IPS.secondary, { description: long }));
  expect(run.code).toBe(1);
  const text = [...run.stdout, ...run.stderr].join('\n');
  expect(text).toContain('field description: must be at most 1000 characters');
  expect(text).not.toContain('x'.repeat(81));
  expect(h.sim.executed()).toEqual([]);
});
