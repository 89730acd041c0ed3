import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { sharedBudgetFile } from '../../src/api/budget-store';
import { parseSimulatorArgs, readAccountFile } from '../../src/cli/simulator-command';
import { accountFileJsonSchema, seedFromAccountFile, startSimulator, type RunningSimulator } from '../../src/simulator';
import { faultBody, serverChangeBody } from '../../src/testing/control-bodies';
import { FaultEffect } from '../../src/testing/fault';
import { SimulatedAccount } from '../../src/testing/simulated-account';
import { filesBelow } from '../helpers/files';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples', 'testing');
const ACCOUNT = join(EXAMPLES, 'account.json');

test('a missing account file is named with where it was looked for, in the caller\'s words, before any simulator starts', () => {
  expect(() => SimulatedAccount.start({ accountFile: 'acount.json' })).toThrow(
    `SimulatedAccount.start: accountFile "acount.json" does not exist; looked for ${join(process.cwd(), 'acount.json')}`);
  const agent = process.env.JSII_AGENT;
  process.env.JSII_AGENT = 'Python/3.12.1';
  try {
    expect(() => SimulatedAccount.start({ accountFile: 'acount.json' })).toThrow('SimulatedAccount.start: account_file "acount.json" does not exist');
  } finally {
    if (agent === undefined) delete process.env.JSII_AGENT;
    else process.env.JSII_AGENT = agent;
  }
});

describe('the account file', () => {
  test('the example reads with the defaults filled in: the full token added, shared servers secondary, firewalls as given', () => {
    const seed = readAccountFile(ACCOUNT);
    expect(seed.tokens.map((t) => [t.name, t.scopes.length])).toEqual([['full', 5], ['ci', 5]]);
    expect(seed.tokens[1].secret).toBe('hsim_ci_valid_only_in_the_simulator');
    expect(seed.tokens[0].secret).toMatch(/^hsim_full_[0-9a-f]{16}$/);
    const [web1, , partner] = seed.servers;
    expect(web1.server).toMatchObject({ id: 'vps_web_1', status: 'active', power: 'running', accessRole: 'primary', hostname: 'web-1.example.com' });
    expect(web1.firewall).toEqual({ enabled: true, rulesets: [1, 2] });
    expect(partner.server.accessRole).toBe('secondary');
    expect(partner.firewall).toEqual({ enabled: false, rulesets: [] });
  });

  test('a dedicated server\'s addresses get IP settings, listed ones as given and the rest the defaults', () => {
    const seed = seedFromAccountFile({ servers: [{ id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', type: 'dedicated', name: 'metal', ipv4: ['203.0.113.10', '203.0.113.11'], ipSettings: [{ address: '203.0.113.11', rdns: 'b.example.com' }] }] });
    expect(seed.servers[0].ipSettings).toEqual([
      { address: '203.0.113.10', rdns: null, description: null, protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } },
      { address: '203.0.113.11', rdns: 'b.example.com', description: null, protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } },
    ]);
  });

  test('a wrong file is refused, naming every wrong member, and the file', () => {
    expect(() => seedFromAccountFile({ servers: [{ id: 'vps_a_1', type: 'dedicated', name: 'x', firewall: { rulesets: [9] } }, { id: 'vps_a_1', type: 'vps', name: 'y', colour: 'red' }] }))
      .toThrow('the account file is not valid: servers.1: "colour" is not a member here: its members are id, type, name, status, power, hostname, os, ipv4, ipv6, shared, firewall, ipSettings');
    expect(() => seedFromAccountFile({ servers: [{ id: 'vps_a_1', type: 'dedicated', name: 'x', firewall: { rulesets: [9] } }, { id: 'vps_a_1', type: 'vps', name: 'y', ipv4: [], ipSettings: [] }] }))
      .toThrow('the account file is not valid: servers.0.id: a dedicated server\'s id starts with ded_; servers.0.firewall: dedicated servers have no firewall here (the API has none for them); servers.0.firewall.rulesets: 9 is not one of rulesets; servers.1.id: vps_a_1 is used twice; servers.1.ipSettings: only dedicated servers have IP settings');
    expect(() => readAccountFile(join(ROOT, 'package.json'))).toThrow(/package\.json: the account file is not valid: servers: Invalid input: expected array/);
    expect(() => readAccountFile('/nowhere.json')).toThrow('cannot read the account file /nowhere.json: ENOENT');
  });

  test('the JSON Schema in docs/ is the one the simulator parses with, and the example names it', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'docs', 'testing', 'account-file.schema.json'), 'utf8'))).toEqual(accountFileJsonSchema());
    // The schema ships in the package: where an npm project's editor finds it, not a path of this clone.
    expect(JSON.parse(readFileSync(ACCOUNT, 'utf8')).$schema).toBe('./node_modules/cdktf-server-hosting/docs/testing/account-file.schema.json');
  });

  test('simulator --account FILE is an option of the command', () => {
    expect(parseSimulatorArgs(['--account', 'a.json', '--port', '0'])).toEqual({ port: 0, host: '127.0.0.1', allowedHosts: [], accountFile: 'a.json', exitWithParent: false, still: false, limits: {} });
    expect(parseSimulatorArgs(['--requests-per-minute', '40', '--actions-per-minute', '3', '--account-requests-per-minute', '90']).limits).toEqual({ requestsPerToken: 40, actionsPerToken: 3, requestsPerAccount: 90 });
  });

  test('a token name that could print lines of its own at start is refused, naming the rule', () => {
    for (const name of ['ci\ndata: injected', 'ci\u001b[2J', 'a b', 'x'.repeat(41)]) {
      expect(() => seedFromAccountFile({ servers: [], tokens: [{ name, scopes: ['servers:read'] }] }))
        .toThrow('the account file is not valid: tokens.0.name: letters, digits, _ and -, at most 40');
    }
  });
});

describe('the kit\'s structs as the control surface speaks them', () => {
  test('a fault: each effect takes its own members, and a member of another effect is refused, naming what it takes', () => {
    expect(faultBody({ effect: FaultEffect.ERROR, status: 503, times: 1, endpoint: 'POST /servers/{serverId}/actions' }))
      .toEqual({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 503 } });
    expect(faultBody({ effect: FaultEffect.OPERATION, operationStatus: 'outcome_unknown' })).toEqual({ effect: { type: 'operation', outcome: { status: 'outcome_unknown', takesEffect: false } } });
    expect(() => faultBody({ effect: FaultEffect.LATENCY, status: 500 })).toThrow('a latency fault takes no status (it takes latencyMs)');
  });

  test('a server change: address settings need the address, and the protection layers go together', () => {
    expect(JSON.parse(JSON.stringify(serverChangeBody({ ip: '203.0.113.10', rdns: 'x.example.com', firewallEnabled: false }))))
      .toEqual({ firewall: { enabled: false }, ip: { address: '203.0.113.10', rdns: 'x.example.com' } });
    expect(() => serverChangeBody({ rdns: 'x.example.com' })).toThrow('changeServer: rdns, description and the protection layers change one address: set ip too');
    expect(() => serverChangeBody({ ip: '203.0.113.10', layer4: 'permanent' })).toThrow('set layer4 and layer7 together');
  });

  test('a server change in the control surface\'s own shape gives the same body as the flat one', () => {
    const nested = serverChangeBody({ firewall: { enabled: false }, ip: { address: '203.0.113.10', rdns: 'x.example.com', protection: { layer4: 'permanent', layer7: 'off' } } });
    const flat = serverChangeBody({ firewallEnabled: false, ip: '203.0.113.10', rdns: 'x.example.com', layer4: 'permanent', layer7: 'off' });
    expect(JSON.parse(JSON.stringify(nested))).toEqual(JSON.parse(JSON.stringify(flat)));
    expect(JSON.parse(JSON.stringify(nested))).toEqual({ firewall: { enabled: false }, ip: { address: '203.0.113.10', rdns: 'x.example.com', protection: { layer4: 'permanent', layer7: 'off' } } });
    expect(() => serverChangeBody({ firewall: { enabled: false }, firewallRulesets: [1] })).toThrow('changeServer: set firewall, or firewallEnabled and firewallRulesets (the flat form), not both');
    expect(() => serverChangeBody({ ip: { address: '203.0.113.10' }, rdns: 'x.example.com' })).toThrow('with ip as an object, put rdns, description and protection inside it');
  });
});

test('the testing guide shows each example file as it is, so what it shows is what the tests run', () => {
  const guide = readFileSync(join(ROOT, 'docs', 'guides', 'testing-your-stacks.md'), 'utf8');
  for (const file of filesBelow(EXAMPLES)) expect([relative(EXAMPLES, file), guide.includes(readFileSync(file, 'utf8').trimEnd())]).toEqual([relative(EXAMPLES, file), true]);
});

/** The guide's plain-HCL path: `terraform test` against the account file the simulator command serves. */
describeWithTerraform('the testing guide\'s terraform test example', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  /** The CLI configuration installing the provider from its mirror, as the guide's reader sets it up. */
  const env: Record<string, string> = {};
  beforeAll(async () => {
    sim = await startSimulator({ seed: readAccountFile(ACCOUNT) });
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: 'hsim_ci_valid_only_in_the_simulator', TF_VAR_hosting_api_url: sim.baseUrl });
    ws.writeHcl(env, '');
    cpSync(join(EXAMPLES, 'hcl'), ws.stackDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('both runs pass; the simulator carried out one shutdown of web-1 and nothing else', async () => {
    expect((await ws.terraform(['init', '-input=false', '-no-color'], { env })).code).toBe(0);
    const run = await ws.terraform(['test', '-no-color'], { env });
    expect(run.output).toContain('Success! 2 passed, 0 failed.');
    expect(run.code).toBe(0);
    expect(sim.executed().map((w) => `${w.serverId} ${w.kind} ${w.detail}`)).toEqual(['vps_web_1 action shutdown']);
  });
});

test('reset gives a test a fresh account without a restart: writes, drift and faults are gone, its tokens stay', async () => {
  const account = SimulatedAccount.start();
  try {
    account.changeServer('vps_web_1', { power: 'stopped' });
    account.addFault({ effect: FaultEffect.ERROR, status: 503, endpoint: 'GET /servers' });
    const narrow = account.tokenWithScopes(['servers:read']);
    account.reset();
    expect(account.state().find((s) => s.id === 'vps_web_1')!.power).toBe('running');
    const listed = await fetch(`${account.baseUrl}/servers`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(listed.status).toBe(200);
    expect((await fetch(`${account.baseUrl}/servers`, { headers: { authorization: `Bearer ${narrow}` } })).status).toBe(200);
  } finally {
    account.stop();
  }
});

test('stop() takes the pacing files of the tokens the account minted: a suite leaves no file per token behind', () => {
  const account = SimulatedAccount.start();
  const narrow = account.tokenWithScopes(['servers:read']);
  const files = [account.token, narrow].map((token) => sharedBudgetFile(account.baseUrl, token));
  for (const file of files) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, '{}');
  }
  account.stop();
  expect(files.filter((file) => existsSync(file))).toEqual([]);
});

test('the rate limits are the test\'s to tighten: a third request in the minute is refused with 429; a limit out of bounds is said in the caller\'s words', async () => {
  expect(() => SimulatedAccount.start({ requestsPerMinute: 0 })).toThrow('SimulatedAccount.start: requestsPerMinute is 0; it must be a whole number from 1 to 100,000');
  const account = SimulatedAccount.start({ requestsPerMinute: 2 });
  try {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${account.baseUrl}/servers`, { headers: { authorization: `Bearer ${account.token}` } })).status);
    expect(statuses).toEqual([200, 200, 429]);
  } finally {
    account.stop();
  }
});

test('a mistyped server id or scope is answered with the one likely meant, naming the method', () => {
  const account = SimulatedAccount.start();
  try {
    expect(() => account.changeServer('vps_web_l', { power: 'stopped' })).toThrow(/^SimulatedAccount\.changeServer: the account has no server "vps_web_l"; did you mean "vps_web_1"\? its servers are vps_web_1, /);
    expect(() => account.tokenWithScopes(['server:read'])).toThrow(/^SimulatedAccount\.tokenWithScopes: "server:read" is not a scope; did you mean "servers:read"\? the scopes are /);
  } finally {
    account.stop();
  }
});

test('an account file\'s mistakes are all said at once, a mistyped member with the one it likely meant', () => {
  expect(() => seedFromAccountFile({ servers: [{ id: 'vps_a_1', type: 'vps', name: 'a', powr: 'running', firewal: {} }], tokns: [] })).toThrow(
    'the account file is not valid: servers.0: "powr" is not a member here; did you mean "power"?; servers.0: "firewal" is not a member here; did you mean "firewall"?; (file): "tokns" is not a member here; did you mean "tokens"?',
  );
});
