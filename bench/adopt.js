// `adopt` on the demo account and on a seeded account of 300 servers, under section 8's limits
// time-scaled as in bench/apply.js (120 requests per 6 s per token instead of per 60 s), side by
// side with the rate-limit bound: one list read plus one paced read per setting. Needs `npx projen
// compile` first. Usage: node bench/adopt.js [N]   (default 300)
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { defaultSeed, startSimulator } = require('../lib/simulator');

const WINDOW_MS = 6_000;
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };

/** N servers: two in three VPS (a firewall each), one in three dedicated with two addresses. */
function seedOf(n) {
  const base = defaultSeed();
  const vps = base.servers.find((s) => s.server.id === 'vps_web_1');
  const ded = base.servers.find((s) => s.server.type === 'dedicated' && s.ipSettings.length > 1);
  const servers = Array.from({ length: n }, (_, i) => {
    if (i % 3 === 2) {
      const id = `ded_${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      const ips = [`198.18.${Math.floor(i / 250)}.${i % 250}`, `198.19.${Math.floor(i / 250)}.${i % 250}`];
      return { ...ded, server: { ...ded.server, id, name: `metal-${i}`, ipv4: ips }, ipSettings: ips.map((address) => ({ ...ded.ipSettings[0], address, rdns: `metal-${i}.example.com` })) };
    }
    return { ...vps, server: { ...vps.server, id: `vps_bench_${i}`, name: `web-${i}` }, firewall: { enabled: i % 2 === 0, rulesets: [1] } };
  });
  return { ...base, servers };
}

function adopt(sim) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(__dirname, '..', 'bin', 'cdktf-server-hosting'), 'adopt', '--language', 'hcl'], {
      env: { PATH: process.env.PATH, HOSTING_API_URL: sim.baseUrl, HOSTING_API_TOKEN: sim.tokens.full },
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, wall: Number(process.hrtime.bigint() - started) / 1e9, summary: stderr.trim().split('\n').pop() }));
  });
}

async function measure(label, seed) {
  const sim = await startSimulator({ seed, limits: LIMITS });
  try {
    const r = await adopt(sim);
    const requests = sim.requests.length;
    const refused = sim.requests.filter((q) => q.status === 429).length;
    const bound = Math.max(0, Math.ceil((requests - refused) / LIMITS.requestsPerToken) - 1) * (WINDOW_MS / 1000);
    console.log(`${label.padEnd(22)} wall ${r.wall.toFixed(1).padStart(5)} s   requests ${String(requests).padStart(4)}   429s ${refused}   rate-limit bound ${bound.toFixed(1).padStart(5)} s   ${bound ? `ratio ${(r.wall / bound).toFixed(2)}x` : 'limits do not bind'}   exit ${r.code}: ${r.summary}`);
  } finally {
    await sim.close();
  }
}

async function main() {
  const n = Number(process.argv[2] ?? 300);
  console.log(`adopt --language hcl under section 8's limits, time-scaled (${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s per token):`);
  await measure('demo account', defaultSeed());
  await measure(`${n} servers`, seedOf(n));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
