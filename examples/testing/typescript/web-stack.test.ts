import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Testing } from 'cdktf';
import { PowerState, ServerFirewall, testing } from 'cdktf-server-hosting';
import { WebStack } from './web-stack';

let account: testing.SimulatedAccount | undefined;
beforeAll(() => {
  // Beside this file, wherever jest runs from.
  account = testing.SimulatedAccount.start({ accountFile: join(__dirname, 'account.json') });
});
// A start that failed leaves no account: jest reports that failure, not this one.
afterAll(() => account?.stop());

// Each test synthesizes into a folder of its own, its stacks' state inside it, removed when it ends.
const apps: testing.IsolatedApp[] = [];
const newApp = () => {
  const app = new testing.IsolatedApp();
  apps.push(app);
  return app;
};
afterEach(() => {
  for (const app of apps.splice(0)) app.remove();
});

test('the change stops exactly web-1 and writes nothing else', () => {
  if (!account) throw new Error('the simulated account did not start');
  const sim = account;
  const app = newApp();
  new WebStack(app, 'web', sim.baseUrl);
  app.synth();

  const terraform = (...args: string[]) =>
    execFileSync('terraform', [...args, '-input=false', '-no-color'], {
      cwd: app.stackDir('web'),
      env: { ...process.env, HOSTING_API_TOKEN: sim.token },
    });
  terraform('init');
  terraform('apply', '-auto-approve');

  expect(sim.executedActions()).toEqual([{ serverId: 'vps_web_1', action: 'shutdown' }]);
  expect(sim.executedWrites()).toHaveLength(1);
  expect(sim.state().find((s) => s.id === 'vps_web_2')?.power).toBe('running');
});

// Offline, no account: cdktf's own matchers find a construct's resource by its tfResourceType.
test('the stack manages both firewalls and stops web-1', () => {
  const synthesized = Testing.synth(new WebStack(newApp(), 'web'));
  expect(Testing.toHaveResourceWithProperties(synthesized, ServerFirewall.tfResourceType, { server_id: 'vps_web_2', rulesets: [1, 2] })).toBe(true);
  expect(Testing.toHaveResourceWithProperties(synthesized, PowerState.tfResourceType, { server_id: 'vps_web_1', state: 'stopped' })).toBe(true);
});
