/** One valid example of every response shape of section 2, for client tests. */
export const VPS_ID = 'vps_ab_1';
export const DED_ID = 'ded_0b1e7c1a-3f1c-4c1a-9a53-5c7b8c2d9e01';
export const DED_IP = '203.0.113.10';

export const server = {
  id: VPS_ID,
  type: 'vps',
  name: 'web-1',
  hostname: 'web-1.example.com',
  status: 'active',
  power: 'running',
  ipv4: ['198.51.100.7'],
  ipv6: [],
  os: 'debian-12',
  resources: { cpuCores: 2, memoryMb: 4096, storageGb: 80, trafficGb: null },
  accessRole: 'primary',
  serviceId: 1001,
  createdAt: '2026-01-01T00:00:00Z',
};
export const operation = {
  id: 'op_1',
  serverId: VPS_ID,
  action: 'shutdown',
  status: 'queued',
  message: null,
  requestedAt: '2026-11-20T10:00:00Z',
  completedAt: null,
};
export const serverDetail = { ...server, actions: ['shutdown', 'power_off', 'reboot', 'reset'], currentOperation: null };
export const tokenInfo = {
  accountId: 42, token: { name: 'ci', type: 'personal_token', scopes: ['servers:read'] }, sourceIp: '127.0.0.1', apiVersion: 'v1',
};
export const metrics = {
  sampledAt: '2026-11-20T10:00:00Z',
  cpuPercent: 12.5,
  memory: { totalBytes: 4e9, usedBytes: 1e9, usagePercent: 25 },
  storage: [{ mount: '/', totalBytes: 8e10, usedBytes: 2e10, usagePercent: 25 }],
  bandwidth: { usedBytes: 1e9, limitBytes: null },
};
export const ipEntries = [{ address: DED_IP, version: 'ipv4', primary: true }];
export const ipSettings = {
  address: DED_IP,
  rdns: 'web1.example.com',
  description: null,
  protection: { layer4: 'dynamic', layer7: 'off' },
  editable: { rdns: true, description: true, protection: true },
};
export const trafficRates = {
  kind: 'rates',
  from: '2026-11-19T10:00:00Z',
  to: '2026-11-20T10:00:00Z',
  totals: { incomingGb: 1.5, outgoingGb: 3 },
  interfaces: [{ incoming: [{ time: '2026-11-20T09:00:00Z', mbps: 12 }], outgoing: [] }],
};
export const trafficMonthly = {
  kind: 'monthly',
  months: [{ start: '2026-11-01T00:00:00Z', end: '2026-11-30T23:59:59Z', rxBytes: 1, txBytes: 2, totalBytes: 3, limitGb: 1000 }],
};
export const ddosStatus = {
  address: DED_IP,
  status: 'protected',
  totalIncidents: 1,
  addresses: [DED_IP],
  incidents: [{ id: 'inc_1', startedAt: '2026-11-01T00:00:00Z', endedAt: null, durationSeconds: null, peak: '12 Gbps', attackTypes: ['udp_flood'] }],
};
export const ddosRules = { address: DED_IP, available: true, rules: [{ protocol: 'tcp', port: 443, state: 'allow' }] };
export const rulesets = [{ id: 1, name: 'web' }, { id: 2, name: 'ssh' }];
export const firewall = { enabled: true, rulesets: [1, 2] };
