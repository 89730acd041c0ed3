import { canonicalJson, idempotencyKey, type KeyInput } from '../../src/reconcile';

const base: KeyInput = { account: 'acct-a', intent: 'a1b2', kind: 'firewall', serverId: 'vps_web_1', step: 'firewall', desired: { enabled: true }, observed: { enabled: false }, attempt: 1 };

test('deterministic: the same intent gives the same key (a retry is replayed)', () => {
  expect(idempotencyKey(base)).toBe(idempotencyKey({ ...base, desired: { enabled: true } }));
});

test('key order inside values does not matter', () => {
  expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  expect(idempotencyKey({ ...base, desired: { a: 1, b: 2 } })).toBe(idempotencyKey({ ...base, desired: { b: 2, a: 1 } }));
});

test.each<[string, Partial<KeyInput>]>([
  ['another intent (another apply, a replacement, another reboot generation)', { intent: 'c3d4' }],
  ['another account (a second provider alias, a rotated token)', { account: 'acct-b' }],
  ['another server', { serverId: 'vps_web_2' }],
  ['another kind', { kind: 'ip_settings' }],
  ['another step', { step: 'rdns' }],
  ['another desired value', { desired: { enabled: false } }],
  ['another observed value (A -> B -> A)', { observed: { enabled: true } }],
  ['a deliberate new attempt', { attempt: 2 }],
])('%s gives another key', (_name, change) => {
  expect(idempotencyKey({ ...base, ...change })).not.toBe(idempotencyKey(base));
});

test('8 to 128 safe characters, naming the step', () => {
  for (const step of ['firewall', 'rdns', 'power_off', 'x'.repeat(200)]) {
    const key = idempotencyKey({ ...base, step });
    expect(key.length).toBeGreaterThanOrEqual(8);
    expect(key.length).toBeLessThanOrEqual(128);
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
  }
  expect(idempotencyKey({ ...base, step: 'power_off' })).toMatch(/^csh-poweroff-/);
});

test('the derivation is pinned: an apply killed before an upgrade and re-run after it sends the same key, so the API replays', () => {
  expect(idempotencyKey(base)).toBe('csh-firewall-tQXQeYoxwe31ZCUyr-Ub2BJlJeh4Vz3e7mJOMQ0HBD8');
});
