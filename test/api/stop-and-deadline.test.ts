import { isHostingApiError } from '../../src/api';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

/** The caller's stop and its deadline bind every request: nothing starts after them, and a stop cuts off the one in flight. */
const s = useSimulator();

test('a stop cuts off the request in flight and starts no other', async () => {
  const stop = new AbortController();
  const client = s.client({ signal: stop.signal });
  s.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', effect: { type: 'latency', ms: 2_000 } });
  const started = performance.now();
  const inFlight = client.updateFirewall(IDS.vpsRunning, { enabled: true }, 'key-stop-0001').catch((err: unknown) => err);
  setTimeout(() => stop.abort(), 100);
  const err = await inFlight;
  expect(isHostingApiError(err, 'aborted')).toBe(true);
  expect((err as Error).message).toContain('stopped while the request was in flight; the write may have been applied');
  expect(performance.now() - started).toBeLessThan(1_500);
  const before = s.sim.requests.length;
  const next = await client.getServer(IDS.vpsRunning).catch((e: unknown) => e);
  expect(isHostingApiError(next, 'aborted')).toBe(true);
  expect((next as Error).message).toContain('stopped before the request was sent');
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  expect(s.sim.requests.slice(before).filter((r) => r.endpoint === 'GET /servers/{serverId}')).toEqual([]);
});

test('a view bound by an earlier deadline shares the client but gives up by its own deadline; the client is unaffected', async () => {
  const client = s.client();
  const view = client.withDeadline(s.clock.now() - 1);
  const before = s.sim.requests.length;
  const err = await view.getServer(IDS.vpsRunning).catch((e: unknown) => e);
  expect(isHostingApiError(err, 'deadline_exceeded')).toBe(true);
  expect(s.sim.requests.length).toBe(before);
  expect((await client.getServer(IDS.vpsRunning)).data.id).toBe(IDS.vpsRunning);
  await view.close();
  expect((await client.getServer(IDS.vpsRunning)).data.id).toBe(IDS.vpsRunning);
});
