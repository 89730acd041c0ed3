import { carriesAccessKey, controlWriteRefusal, hostRefusal, isLoopbackHost, servedHostNames } from '../../src/simulator/request-guard';

/* Who may talk to a simulator: the pure checks, as tables (test/simulator/edges.test.ts drives them over HTTP). */

test.each([
  ['127.0.0.1', true], ['127.8.9.10', true], ['localhost', true], ['LOCALHOST.', true], ['app.localhost', true], ['::1', true], ['[::1]:8787', true],
  ['0.0.0.0', false], ['::', false], ['192.168.1.5', false], ['example.com', false], ['127.0.0.1.evil.example', false],
])('%s is loopback: %s', (host, loopback) => {
  expect(isLoopbackHost(host)).toBe(loopback);
});

describe('the Host header', () => {
  const served = servedHostNames('127.0.0.1', ['sim.ci.internal']);

  test.each(['127.0.0.1:8787', 'localhost:8787', 'LocalHost', '[::1]:8787', 'sim.ci.internal:8787', 'sim.ci.internal.'])('%s is served', (host) => {
    expect(hostRefusal(host, served)).toBeUndefined();
  });

  test.each(['attacker.example:8787', 'attacker.example', '127.0.0.1.nip.io:8787', '192.168.1.5:8787'])('%s is refused, saying what to do and naming none of the machine\'s names', (host) => {
    expect(hostRefusal(host, served)).toBe(`this simulator does not answer requests for the host "${host}". `
      + 'Use localhost or the address it listens on in the URL, or start the simulator with --allow-host NAME for a name of your own.');
    expect(hostRefusal(host, servedHostNames('0.0.0.0', ['build-host-7', '10.0.0.7']))).not.toMatch(/build-host-7|10\.0\.0\.7/);
  });

  test('no Host header at all is refused', () => {
    expect(hostRefusal(undefined, served)).toContain('does not answer requests without a Host header');
  });

  test('listening on every interface serves none of them by the wildcard address itself', () => {
    expect([...servedHostNames('0.0.0.0', ['10.0.0.7'])]).toEqual(['localhost', '127.0.0.1', '::1', '10.0.0.7']);
  });
});

describe('a control request that changes something', () => {
  const own = 'http://127.0.0.1:8787';
  const json = { 'content-type': 'application/json' };

  test.each<[string, Record<string, string>]>([
    ['JSON with no Origin (curl, the testing kit)', json],
    ['JSON from the live page itself', { ...json, 'origin': own, 'sec-fetch-site': 'same-origin' }],
    ['JSON with a charset', { 'content-type': 'application/json; charset=utf-8' }],
  ])('%s is accepted', (_name, headers) => {
    expect(controlWriteRefusal(headers, own)).toBeUndefined();
  });

  test.each<[string, Record<string, string>, string]>([
    ['a form on another site (text/plain)', { 'content-type': 'text/plain', 'origin': 'http://evil.example' }, 'this one came from "http://evil.example"'],
    ['JSON from another site', { ...json, origin: 'http://evil.example' }, 'this one came from "http://evil.example"'],
    ['JSON from another port of this machine', { ...json, origin: 'http://127.0.0.1:3000' }, 'this one came from "http://127.0.0.1:3000"'],
    ['a request the browser marks cross-site, without an Origin', { ...json, 'sec-fetch-site': 'cross-site' }, 'the browser marked this one cross-site'],
    ['text/plain with no Origin', { 'content-type': 'text/plain;charset=UTF-8' }, 'must be JSON: send the header "content-type: application/json" (this one had "text/plain")'],
    ['no content type', {}, '(this one had none)'],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }, 'this one had "application/x-www-form-urlencoded"'],
  ])('%s is refused, saying why', (_name, headers, why) => {
    expect(controlWriteRefusal(headers, own)).toContain(why);
  });
});

test('the access key is taken as a bearer token or from the live page\'s cookie, compared whole', () => {
  const key = 'k'.repeat(32);
  expect(carriesAccessKey({ authorization: `Bearer ${key}` }, key)).toBe(true);
  expect(carriesAccessKey({ cookie: `theme=dark; hosting_simulator_access=${key}` }, key)).toBe(true);
  expect(carriesAccessKey({ authorization: `Bearer ${key.slice(1)}` }, key)).toBe(false);
  expect(carriesAccessKey({ authorization: `Bearer ${key}x` }, key)).toBe(false);
  expect(carriesAccessKey({ cookie: 'hosting_simulator_access=' }, key)).toBe(false);
  expect(carriesAccessKey({}, key)).toBe(false);
});
