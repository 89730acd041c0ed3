// Two stacks of N firewalls each, applied at once by two terraform processes against one account
// under section 8's limits time-scaled as in bench/apply.js (120 requests per 6 s per token, 300 per
// account), both with the same token: the pipelines of two teams on one account. Prints each
// apply's wall and exit code, the 429s the API answered (which the providers wait out), and the
// resources Terraform reports as failed. Needs `npx projen compile` first.
// With --apart, each stack runs as on a machine of its own: a temporary folder of its own, so no
// pacing file is shared and the API's headers alone pace them.
// Usage: node bench/parallel-stacks.js [N] [--stacks=K] [--limit=R] [--apart]   (default 50 firewalls, 2 stacks, 120 requests per window)
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { App, LocalBackend, TerraformStack } = require('cdktf');
const { HostingApi, ServerFirewall } = require('../lib');
const { defaultSeed, startSimulator } = require('../lib/simulator');
const { terraform } = require('./terraform');

const WINDOW_MS = 6_000;
const option = (name, fallback) => Number((process.argv.find((a) => a.startsWith(`--${name}=`)) ?? `--${name}=${fallback}`).split('=')[1]);
const LIMITS = { requestsPerToken: option('limit', 120), actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };
const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 50);
const stacks = option('stacks', 2);
const apart = process.argv.includes('--apart');

/**
 * The token's fixed windows as the simulator opens them (by the first request after the last
 * reset): each one's answered requests and the idle time before it, where pacing loses the bound.
 */
function windowsOf(requests) {
  const windows = [];
  for (const r of requests) {
    const last = windows[windows.length - 1];
    if (last && r.at < last.start + WINDOW_MS) {
      if (r.status !== 429) last.answered += 1;
      else last.refused.push(r.at - last.start);
    } else {
      windows.push({ start: r.at, answered: r.status === 429 ? 0 : 1, refused: r.status === 429 ? [0] : [], idleMs: last ? r.at - (last.start + WINDOW_MS) : 0 });
    }
  }
  return windows;
}

/** One stack of `count` firewalls on the servers `first`..`first + count - 1`. */
function synth(root, name, baseUrl, first, count) {
  const app = new App({ outdir: root });
  const stack = new TerraformStack(app, name);
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  const api = new HostingApi(stack, 'hosting', { baseUrl });
  for (let i = first; i < first + count; i++) new ServerFirewall(stack, `fw${i}`, { api, serverId: `vps_team_${i + 1}`, enabled: true, rulesets: [1] });
  app.synth();
  return join(root, 'stacks', name);
}

async function main() {
  const base = defaultSeed();
  const template = base.servers[0];
  const servers = Array.from({ length: stacks * n }, (_, i) => ({ ...template, server: { ...template.server, id: `vps_team_${i + 1}` }, firewall: { enabled: false, rulesets: [] } }));
  const sim = await startSimulator({ seed: { ...base, servers }, limits: LIMITS });
  const root = mkdtempSync(join(tmpdir(), 'bench-parallel-'));
  try {
    const env = { HOSTING_API_TOKEN: sim.tokens.full };
    const dirs = Array.from({ length: stacks }, (_, i) => synth(root, `team-${i + 1}`, sim.baseUrl, i * n, n));
    for (const dir of dirs) await terraform(dir, ['init', '-input=false', '-no-color'], env);
    const before = sim.requests.length;
    const envOf = (i) => (apart ? { ...env, TMPDIR: mkdtempSync(join(root, `machine-${i + 1}-`)) } : env);
    const applies = await Promise.all(dirs.map((dir, i) => terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], envOf(i))));
    const requests = sim.requests.slice(before);
    const refused = requests.filter((r) => r.status === 429).length;
    const failed = applies.reduce((sum, a) => sum + (a.output.match(/^Error: /gm) ?? []).length, 0);
    const written = sim.executed({ kind: 'firewall' }).length;
    // The bound of all stacks together: every answered request within the token's budget, window after window.
    const bound = Math.max(0, Math.ceil((requests.length - refused) / LIMITS.requestsPerToken) - 1) * (WINDOW_MS / 1000);
    const wall = Math.max(...applies.map((a) => a.wall));
    console.log(`${stacks} stacks of ${n} firewalls at once, one token, ${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s${apart ? ', each as on a machine of its own' : ''}:`);
    applies.forEach((a, i) => console.log(`  stack ${i + 1}: apply wall ${a.wall.toFixed(1)} s, exit ${a.code}`));
    console.log(`  requests ${requests.length}, answered 429 ${refused} (${((100 * refused) / requests.length).toFixed(1)}%, waited out), failures ${failed}, firewalls written ${written} of ${stacks * n}`);
    const windows = windowsOf(requests);
    console.log(`  windows: answered ${windows.map((w) => w.answered).join(', ')}; idle before each ${windows.map((w) => `${w.idleMs} ms`).join(', ')}`);
    console.log(`  429s per window, ms into it: ${windows.map((w) => `[${w.refused.join(' ')}]`).join(' ')}`);
    console.log(`  wall of the slowest ${wall.toFixed(1)} s against the rate-limit bound ${bound.toFixed(1)} s: ${bound ? `${(wall / bound).toFixed(2)}x` : 'limits do not bind'}`);
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main();
