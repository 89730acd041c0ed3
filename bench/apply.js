// Applies N firewall resources with the real terraform against the simulator, with the real rate
// limits scaled down in time (the same counts per window, a window of WINDOW_MS instead of 60 s),
// and prints wall time against the lower bound the limits allow, requests per resource, 429s and
// failures. Then synth time of 1,000 constructs against 1,000 bare DataResources.
// Needs a build (npx projen compile). Usage: node bench/apply.js [N ...]   (default: 10 100 300)
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { App, DataResource, LocalBackend, TerraformStack } = require('cdktf');
const { HostingApi, ServerFirewall } = require('../lib');
const { defaultSeed, startSimulator } = require('../lib/simulator');

const WINDOW_MS = 6_000;
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };
/** The scale case of the hardening issue: 24 firewalls against 40 requests per window. */
const TIGHT = { ...LIMITS, requestsPerToken: 40 };
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

function terraform(cwd, env, args) {
  return new Promise((resolve) => {
    const child = spawn('terraform', args, { cwd, env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: join(__dirname, '..', 'test', 'e2e', 'terraform.rc'), ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function applyBench(n, limits = LIMITS) {
  const base = defaultSeed();
  const template = base.servers[0];
  const servers = Array.from({ length: n }, (_, i) => ({ ...template, server: { ...template.server, id: `vps_bench_${i + 1}` }, firewall: { enabled: false, rulesets: [] } }));
  const sim = await startSimulator({ seed: { ...base, servers }, limits });
  const root = mkdtempSync(join(tmpdir(), 'bench-apply-'));
  try {
    const app = new App({ outdir: root });
    const stack = new TerraformStack(app, 'bench');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
    servers.forEach((s, i) => new ServerFirewall(stack, `fw${i}`, { api, serverId: s.server.id, enabled: true }));
    app.synth();
    const cwd = join(root, 'stacks', 'bench');
    const env = { HOSTING_API_TOKEN: sim.tokens.full };
    await terraform(cwd, env, ['init', '-input=false', '-no-color']);
    const started = Date.now();
    const run = await terraform(cwd, env, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10']);
    const wall = (Date.now() - started) / 1000;
    const requests = sim.requests.length;
    const refused = sim.requests.filter((r) => r.status === 429).length;
    const served = requests - refused;
    // A failure is a resource Terraform reports as failed, whatever the simulator executed.
    const failed = (run.output.match(/Error: local-exec provisioner error/g) ?? []).length;
    // Every served request spends one unit of the per-token budget; the first window is free.
    const bound = Math.max(0, Math.ceil(served / limits.requestsPerToken) - 1) * (WINDOW_MS / 1000);
    console.log(
      `N=${String(n).padEnd(4)} budget ${limits.requestsPerToken}/${WINDOW_MS / 1000}s   wall ${wall.toFixed(1).padStart(6)} s   rate-limit bound ${bound.toFixed(1).padStart(5)} s   ` +
      `${bound > 0 ? `ratio ${(wall / bound).toFixed(2)}x` : 'limits do not bind'}   requests/resource ${(requests / n).toFixed(2)}   ` +
      `429s ${refused} (${((refused / requests) * 100).toFixed(1)}%)   failed ${failed}${run.code === 0 ? '' : `   terraform exit ${run.code}`}`,
    );
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function synthMs(define) {
  const root = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const started = process.hrtime.bigint();
  const app = new App({ outdir: root });
  define(new TerraformStack(app, 'synth'));
  app.synth();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  rmSync(root, { recursive: true, force: true });
  return ms;
}

async function main() {
  console.log(`apply, -parallelism=10, limits ${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s per token (section 8, time / 10):`);
  for (const n of sizes.length ? sizes : [10, 100, 300]) await applyBench(n);
  await applyBench(24, TIGHT);

  const bare = synthMs((stack) => {
    for (let i = 0; i < 1000; i++) new DataResource(stack, `d${i}`, { input: { i } });
  });
  const constructs = synthMs((stack) => {
    const api = new HostingApi(stack, 'hosting');
    for (let i = 0; i < 1000; i++) new ServerFirewall(stack, `fw${i}`, { api, serverId: `vps_s_${i}`, enabled: true });
  });
  console.log(`\nsynth of 1,000: bare DataResources ${bare.toFixed(0)} ms, ServerFirewalls ${constructs.toFixed(0)} ms, ratio ${(constructs / bare).toFixed(2)}x (target <= 1.5x)`);
}

main();
