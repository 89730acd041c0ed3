// One ServerFirewall with forEach over DataHostingServers(vps, active, primary).ids, on an account of
// N such servers (plus shared and suspended ones the stack must leave alone), under section 8's
// limits time-scaled as in bench/apply.js (120 requests per 6 s per token instead of per 60 s). Prints
// plan and apply wall beside the rate-limit bound, and requests per server. Needs `npx projen
// compile` first. Usage: node bench/for-each.js [N]   (default 300)
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { App, LocalBackend, TerraformIterator, TerraformStack } = require('cdktf');
const { DataHostingServers, HostingApi, ServerFirewall } = require('../lib');
const { seedOf } = require('./fleet-seed');
const { startSimulator } = require('../lib/simulator');
const { terraform } = require('./terraform');

const WINDOW_MS = 6_000;
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };

function synth(root, baseUrl) {
  const app = new App({ outdir: root });
  const stack = new TerraformStack(app, 'fleet');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  const api = new HostingApi(stack, 'hosting', { baseUrl });
  const mine = new DataHostingServers(stack, 'mine', { api, serverType: 'vps', status: 'active', accessRole: 'primary' });
  const each = TerraformIterator.fromList(mine.ids);
  new ServerFirewall(stack, 'web', { api, forEach: each, serverId: each.value, enabled: true, rulesets: [1], lifecycle: { preventDestroy: true } });
  app.synth();
  return join(root, 'stacks', 'fleet');
}

async function main() {
  const n = Number(process.argv[2] ?? 300);
  const sim = await startSimulator({ seed: seedOf(n), limits: LIMITS });
  const root = mkdtempSync(join(tmpdir(), 'bench-for-each-'));
  const env = { HOSTING_API_TOKEN: sim.tokens.full };
  try {
    const dir = synth(root, sim.baseUrl);
    if ((await terraform(dir, ['init', '-input=false', '-no-color'], env)).code !== 0) throw new Error('terraform init failed');
    console.log(`forEach over ${n} VPS (and ${2 * Math.ceil(n / 10)} shared or suspended) under section 8's limits, time-scaled (${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s per token):`);
    for (const [label, args] of [['plan', ['plan', '-input=false', '-no-color']], ['apply', ['apply', '-auto-approve', '-input=false', '-no-color']], ['plan (in sync)', ['plan', '-input=false', '-no-color', '-detailed-exitcode']]]) {
      const before = sim.requests.length;
      const run = await terraform(dir, args, env);
      const requests = sim.requests.slice(before);
      const refused = requests.filter((q) => q.status === 429).length;
      const bound = Math.max(0, Math.ceil((requests.length - refused) / LIMITS.requestsPerToken) - 1) * (WINDOW_MS / 1000);
      console.log(`${label.padEnd(15)} exit ${run.code}   wall ${run.wall.toFixed(1).padStart(5)} s   requests ${String(requests.length).padStart(4)} (${(requests.length / n).toFixed(2)} per server)   429s ${refused}   rate-limit bound ${bound.toFixed(1).padStart(5)} s   ${bound ? `ratio ${(run.wall / bound).toFixed(2)}x` : 'limits do not bind'}`);
    }
    const written = new Set(sim.executed().map((w) => w.serverId));
    console.log(`servers written: ${written.size} of ${n} owned and active; shared or suspended written: ${[...written].filter((id) => Number(id.split('_').pop()) >= n).length}`);
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
