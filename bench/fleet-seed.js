// The bench accounts: N active VPS, and N/10 each of shared and suspended ones.
const { defaultSeed } = require('../lib/simulator');

/** N active VPS the account owns, and N/10 each of shared and suspended ones. */
function seedOf(n) {
  const base = defaultSeed();
  const vps = base.servers.find((s) => s.server.id === 'vps_web_1');
  const server = (i, over) => ({ ...vps, server: { ...vps.server, id: `vps_bench_${i}`, name: `web-${i}`, ...over }, firewall: { enabled: false, rulesets: [] } });
  const extra = Math.ceil(n / 10);
  const servers = [
    ...Array.from({ length: n }, (_, i) => server(i, {})),
    ...Array.from({ length: extra }, (_, i) => server(n + i, { accessRole: 'secondary' })),
    ...Array.from({ length: extra }, (_, i) => server(n + extra + i, { status: 'suspended', power: 'stopped' })),
  ];
  return { ...base, servers };
}

module.exports = { seedOf };
