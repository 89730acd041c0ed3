import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

/** `PATCH /__simulator/servers/{id}`, the out-of-band change a person makes by hand (README: "The simulator by hand"). */
describe('the simulator\'s control endpoint validates what it is given', () => {
  const s = useSimulator();
  const patch = async (body: unknown) => {
    const res = await fetch(`${s.sim.controlUrl}/servers/${IDS.vpsRunning}`, { method: 'PATCH', body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  test.each<[string, unknown, RegExp]>([
    ['a power value outside the spec', { power: 'sleeping' }, /^invalid change: power: /],
    ['a firewall member of the wrong type', { firewall: { enabled: 'nope' } }, /^invalid change: firewall\.enabled: /],
    ['an unknown member', { colour: 'red' }, /^invalid change: .*colour/],
    ['an address that is not IPv4', { ip: { address: 'web', rdns: 'a.example.com' } }, /^invalid change: ip\.address: must be an IPv4 address/],
  ])('%s is a 400 naming the member, and changes nothing', async (_name, body, message) => {
    const before = await (await fetch(`${s.sim.controlUrl}/state`)).text();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect(await (await fetch(`${s.sim.controlUrl}/state`)).text()).toBe(before);
  });

  test('a valid change is made and served by the API', async () => {
    expect((await patch({ power: 'stopped', firewall: { enabled: false } })).status).toBe(200);
    expect((await s.client().getServer(IDS.vpsRunning)).data.power).toBe('stopped');
    expect((await s.client().getFirewall(IDS.vpsRunning)).data.enabled).toBe(false);
    const ip = await fetch(`${s.sim.controlUrl}/servers/${IDS.dedicated}`, { method: 'PATCH', body: JSON.stringify({ ip: { address: IPS.primary, rdns: 'x.example.com' } }) });
    expect(ip.status).toBe(200);
  });
});
