import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { testing } from 'cdktf-server-hosting';
import { WebStack } from './web-stack';

let account: testing.SimulatedAccount;
beforeAll(() => {
  account = testing.SimulatedAccount.start({ accountFile: 'account.json' });
});
afterAll(() => account.stop());

test('the change stops exactly web-1 and writes nothing else', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'web-stack-'));
  const app = new App({ outdir });
  new WebStack(app, 'web', account.baseUrl);
  app.synth();

  const terraform = (...args: string[]) =>
    execFileSync('terraform', [...args, '-input=false', '-no-color'], {
      cwd: join(outdir, 'stacks', 'web'),
      env: { ...process.env, HOSTING_API_TOKEN: account.token },
    });
  terraform('init');
  terraform('apply', '-auto-approve');

  expect(account.executedActions()).toEqual([{ serverId: 'vps_web_1', action: 'shutdown' }]);
  expect(account.executedWrites()).toHaveLength(1);
  expect(account.state().find((s) => s.id === 'vps_web_2')?.power).toBe('running');
});
