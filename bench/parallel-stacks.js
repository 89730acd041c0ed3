// Two stacks of N firewalls each, applied at once by two terraform processes against one account
// under section 8's limits time-scaled as in bench/apply.js (120 requests per 6 s per token, 300 per
// account), both with the same token: the pipelines of two teams on one account. Prints each
// apply's wall and exit code, the 429s the API answered (which the providers wait out), and the
// resources Terraform reports as failed. Needs `npx projen compile` first.
// Usage: node bench/parallel-stacks.js [N]   (default 50)
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { App, LocalBackend, TerraformStack } = require('cdktf');
const { HostingApi, ServerFirewall } = require('../lib');
const { defaultSeed, startSimulator } = require('../lib/simulator');
const { terraform } = require('./terraform');

const WINDOW_MS = 6_000;
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };
const n = Number(process.argv[2] ?? 50);

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
  const servers = Array.from({ length: 2 * n }, (_, i) => ({ ...template, server: { ...template.server, id: `vps_team_${i + 1}` }, firewall: { enabled: false, rulesets: [] } }));
  const sim = await startSimulator({ seed: { ...base, servers }, limits: LIMITS });
  const root = mkdtempSync(join(tmpdir(), 'bench-parallel-'));
  try {
    const env = { HOSTING_API_TOKEN: sim.tokens.full };
    const dirs = [synth(root, 'team-a', sim.baseUrl, 0, n), synth(root, 'team-b', sim.baseUrl, n, n)];
    for (const dir of dirs) await terraform(dir, ['init', '-input=false', '-no-color'], env);
    const before = sim.requests.length;
    const applies = await Promise.all(dirs.map((dir) => terraform(dir, ['apply', '-auto-approve', '-input=false', '-no-color'], env)));
    const requests = sim.requests.slice(before);
    const refused = requests.filter((r) => r.status === 429).length;
    const failed = applies.reduce((sum, a) => sum + (a.output.match(/^Error: /gm) ?? []).length, 0);
    const written = sim.executed({ kind: 'firewall' }).length;
    console.log(`two stacks of ${n} firewalls at once, one token, ${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s:`);
    applies.forEach((a, i) => console.log(`  stack ${i + 1}: apply wall ${a.wall.toFixed(1)} s, exit ${a.code}`));
    console.log(`  requests ${requests.length}, answered 429 ${refused} (waited out), failures ${failed}, firewalls written ${written} of ${2 * n}`);
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main();
