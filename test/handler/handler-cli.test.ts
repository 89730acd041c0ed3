import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runHandler } from '../../src/handler/run-handler';
import { SEED_SERVER_IDS as IDS, startSimulator } from '../../src/simulator';
import { firewallDoc, TOKEN_ENV, useHandler } from '../helpers/handler';
import { SENTINEL_TOKEN } from '../helpers/mock-api';

const h = useHandler();
const doc = firewallDoc(IDS.vpsRunning, { enabled: true });

test('usage', async () => {
  expect((await h.run('frobnicate', doc)).code).toBe(64);
});

test.each<[string, unknown, string]>([
  ['not JSON', '{', 'error: the resource document is not valid JSON'],
  ['an unknown kind', { ...doc, kind: 'dns' }, 'error: the resource document is invalid: kind:'],
  ['a bad server id', { ...doc, serverId: 'web-1' }, 'error: the resource document is invalid: serverId: must be a server id such as vps_ab_1 or ded_<uuid>'],
  ['nothing managed', { ...doc, desired: {} }, 'error: the resource document is invalid: desired: set enabled and/or rulesets'],
  ['a typo', { ...doc, desired: { enabeld: true } }, 'error: the resource document is invalid: desired: Unrecognized key: "enabeld"'],
  ['a token in place of the variable name', { ...doc, api: { tokenEnvVar: 'hsk_live_0123456789abcdef0123' } }, 'api.tokenEnvVar: must be the NAME of an environment variable'],
])('a document with %s is refused before any request', async (_n, bad, message) => {
  const run = await h.run('apply', typeof bad === 'string' ? bad : JSON.stringify(bad));
  expect(run.code).toBe(64);
  expect(run.stderr[0]).toContain(message);
  expect(run.requests).toEqual([]);
});

test('a token pasted as the variable name is never echoed, even when it is set in the environment', async () => {
  const pasted = 'HSK_LIVE_0123456789ABCDEF0123456789';
  const run = await h.run('apply', { ...doc, api: { tokenEnvVar: pasted } }, { env: { [pasted]: 'x' } });
  expect(run.code).toBe(64);
  expect([...run.stdout, ...run.stderr].join('\n')).not.toContain(pasted);
});

test('plain http to another machine is refused before any request unless the document opts in', async () => {
  const refused = await h.run('plan', doc, { env: { HOSTING_API_URL: 'http://api.example.com/api/v1' } });
  expect(refused.stderr[0]).toBe(`error: firewall ${IDS.vpsRunning}: invalid Hosting API base URL "http://api.example.com": plain http would send the token in clear text; use https, or set allowInsecureHttp (allow_insecure_http in Python) on the HostingApi construct if the network path is protected otherwise`);
  const optedIn = await h.run('plan', { ...doc, api: { ...doc.api, allowInsecureHttp: true } }, { env: { HOSTING_API_URL: 'http://127.0.0.9:9/api/v1' } });
  expect(optedIn.stderr.join('\n')).not.toContain('plain http');
});

test('an unexpected failure goes through the same token filter as every other line', async () => {
  const stderr: string[] = [];
  const code = await runHandler(['plan'], { HOSTING_RESOURCE: JSON.stringify(doc), HOSTING_API_URL: h.sim.baseUrl, [TOKEN_ENV]: SENTINEL_TOKEN }, {
    stdout: () => undefined,
    stderr: (line) => stderr.push(line),
    now: () => {
      throw new Error(`clock broke while holding ${SENTINEL_TOKEN}`);
    },
  });
  expect(code).toBe(1);
  expect(stderr.join('\n')).toContain('clock broke while holding [redacted]');
  expect(stderr.join('\n')).not.toContain(SENTINEL_TOKEN);
});

test('the token variable must be set; its name is given, never a value', async () => {
  const run = await h.run('apply', doc, { env: { [TOKEN_ENV]: '' } });
  expect(run.stderr).toEqual([`error: firewall ${IDS.vpsRunning}: the environment variable ${TOKEN_ENV} that should hold the API token is not set or empty`]);
});

test('apply needs the instance id that keys its writes; plan does not', async () => {
  expect((await h.run('apply', doc, { env: { HOSTING_INSTANCE_ID: '' } })).stderr[0]).toContain('HOSTING_INSTANCE_ID is not set');
  expect((await h.run('plan', doc, { env: { HOSTING_INSTANCE_ID: '' } })).code).toBe(2);
});

test('a base URL is required and must end in /api/v1', async () => {
  expect((await h.run('plan', doc, { env: { HOSTING_API_URL: '' } })).stderr[0]).toContain('no API base URL');
  expect((await h.run('plan', doc, { env: { HOSTING_API_URL: 'http://127.0.0.1:1/v2' } })).stderr[0]).toContain('the path must end in /api/v1');
});

test('destroy retains: no request at all, not even with a token', async () => {
  const run = await h.run('destroy', doc, { env: { [TOKEN_ENV]: '' } });
  expect(run.code).toBe(0);
  expect(run.stdout).toEqual([`firewall ${IDS.vpsRunning}: destroy retains the server's current settings; no request made`]);
  expect(run.requests).toEqual([]);
});

test.each<[string, string]>([
  ['a newer document version', JSON.stringify({ ...doc, version: 2 })],
  ['a member this release does not know', JSON.stringify({ ...doc, desired: { enabled: true, logging: true } })],
  ['no document (a resource brought in by terraform import)', ''],
  ['text that is not JSON', '{'],
])('destroy never fails, whatever the stored document: %s', async (_n, stored) => {
  const run = await h.run('destroy', stored);
  expect(run.code).toBe(0);
  expect(run.stdout[0]).toMatch(/destroy retains the server's current settings; no request made$/);
  expect(run.requests).toEqual([]);
});

test('an unreachable API: one clear error naming the code and what to do', async () => {
  const run = await h.run('plan', doc, { env: { HOSTING_API_URL: 'http://127.0.0.1:9/api/v1' } });
  expect(run.code).toBe(1);
  expect(run.stderr.filter((l) => l.startsWith('error:'))).toEqual([
    expect.stringMatching(new RegExp(`^error: firewall ${IDS.vpsRunning}: reading failed: connection to 127\\.0\\.0\\.1:9 failed \\(ECONNREFUSED\\), 4 times in \\d\\.\\d s: nothing answers at that address$`)),
  ]);
  expect(run.stderr.at(-1)).toContain('what to do: the API could not be reached');
});

test('the bundled handler runs as Terraform runs it: a separate node process, token only in the environment', async () => {
  const sim = await startSimulator({ operationDelays: { queuedMs: 10, runningMs: 20 } });
  try {
    const secret = sim.tokens.full;
    const env = { PATH: process.env.PATH, HOSTING_RESOURCE: JSON.stringify({ ...doc, api: { tokenEnvVar: 'MY_TOKEN', baseUrl: sim.baseUrl } }), MY_TOKEN: secret, HOSTING_INSTANCE_ID: 'tf-1' };
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [join(__dirname, '..', '..', 'assets', 'handler', 'index.js'), 'apply'], { env });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^firewall vps_web_1: enabled false -> true\nfirewall vps_web_1: applied \(request id req_[0-9a-f]+\)\n$/);
    expect(result.out).not.toContain(secret);
    expect(sim.executed()).toHaveLength(1);
  } finally {
    await sim.close();
  }
});
