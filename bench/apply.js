// Applies N firewall resources with the real terraform against the simulator, through the provider
// and through the terraform_data bridge side by side in one run, and prints for each: wall and CPU
// (terraform and its children) of the apply and of a no-op plan, requests per resource, 429s and
// failures. Then the provider under the real rate limits scaled down in time (the same counts per
// window, a window of WINDOW_MS instead of 60 s) against the lower bound the limits allow; the
// provider's start-up to its handshake line and to its first answer, as a script and as the standalone executable; synth
// time of 1,000 constructs.
// Needs a build (npx projen compile). With --baseline=DIR (another clone, built), its provider runs
// beside this one in the side-by-side and paced sections: a change's before and after in one run.
// Usage: node bench/apply.js [--only=side,paced,startup,synth] [--sides=provider,terraform_data,floor] [--baseline=DIR] [--window=MS] [--profile=DIR] [N ...]
//        (default: all sections and sides; N 10 100 300; window 6000)
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const http2 = require('node:http2');
const { join, resolve } = require('node:path');
const { App, DataResource, LocalBackend, TerraformStack } = require('cdktf');
const thisTree = require('../lib');
const { Bridge, HostingApi, ServerFirewall } = thisTree;
const { hostPlatform, NODE_RELEASE, standaloneExecutables } = require('../lib/cli/standalone-executable');
const { defaultCacheDir } = require('../lib/cli/user-cache');
const { readStandaloneProgram } = require('../lib/contract/provider-mirror');
const { certificatePem, createServerCertificate } = require('../lib/provider/plugin/certificate');
const { defaultSeed, startSimulator } = require('../lib/simulator');

/** The rate-limit window: 6 s (section 8's limits scaled down in time), or `--window=MS` (60000: the real one). */
const WINDOW_MS = Number((process.argv.find((a) => a.startsWith('--window=')) ?? '--window=6000').slice('--window='.length));
const LIMITS = { requestsPerToken: 120, actionsPerToken: 10, requestsPerAccount: 300, windowMs: WINDOW_MS };
/** Limits that never bind: the bridges' own costs, side by side. */
const UNBOUND = { ...LIMITS, requestsPerToken: 1e9, requestsPerAccount: 1e9 };
/** The scale case of the hardening issue: 24 firewalls against 40 requests per window. */
const TIGHT = { ...LIMITS, requestsPerToken: 40 };
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const only = (process.argv.find((a) => a.startsWith('--only=')) ?? '--only=side,paced,startup,synth').slice('--only='.length).split(',');
const baselineDir = (process.argv.find((a) => a.startsWith('--baseline=')) ?? '').slice('--baseline='.length);
/** The libraries compared: this tree, and the baseline's when given (its constructs carry its provider). */
const TREES = [
  ...(baselineDir ? [{ name: 'baseline', dir: resolve(baselineDir), lib: require(join(resolve(baselineDir), 'lib')) }] : []),
  { name: 'this tree', dir: join(__dirname, '..'), lib: thisTree },
];
/**
 * Each provider run, the bridge of this tree, then Terraform's floor: as many `terraform_data`
 * resources with no provisioner, what Terraform itself costs for N resources.
 */
const FLOOR = 'floor';
/** `--sides=provider,floor` leaves the bridge out: its 300 local-execs take minutes when only the provider's CPU is in question. */
const sidesWanted = (process.argv.find((a) => a.startsWith('--sides=')) ?? `--sides=${Bridge.PROVIDER},${Bridge.TERRAFORM_DATA},${FLOOR}`).slice('--sides='.length).split(',');
const SIDES = [
  ...TREES.map((tree) => ({ ...tree, bridge: Bridge.PROVIDER })),
  { name: 'this tree', lib: thisTree, bridge: Bridge.TERRAFORM_DATA },
  { name: 'Terraform alone', lib: thisTree, bridge: FLOOR },
].filter((side) => sidesWanted.includes(side.bridge));

/** `--profile=DIR`: each provider process writes a CPU profile into DIR (node's `--cpu-prof`); `node bench/cpu-profile-top.js DIR` sums it. */
const PROFILE_DIR = ((dir) => dir && resolve(dir))((process.argv.find((a) => a.startsWith('--profile=')) ?? '').slice('--profile='.length));

/**
 * The provider's own CPU, apart from Terraform's: a `node` first on terraform's PATH that runs this
 * machine's node and, when the program is the provider's bundle, appends the CPU its process used
 * (bash's `times`) to the file PROVIDER_TIMES names, and with `--profile` passes node `--cpu-prof`
 * (an argument: Node takes it there, not from NODE_OPTIONS). The provider package's wrapper runs the
 * first node on PATH (provider-mirror.ts), so every provider process Terraform starts is counted.
 */
const NODE_RECORDER = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-node-'));
  writeFileSync(join(dir, 'node'), [
    '#!/bin/bash',
    'case "$1" in */provider.js) provider=1 ;; *) provider= ;; esac',
    'profile=()',
    'if [ -n "$provider" ] && [ -n "$PROVIDER_PROFILE_DIR" ]; then profile=(--cpu-prof "--cpu-prof-dir=$PROVIDER_PROFILE_DIR"); fi',
    `${JSON.stringify(process.execPath)} "\${profile[@]}" "$@"`,
    'code=$?',
    'if [ -n "$provider" ]; then t=$(mktemp); times >"$t"; tail -1 "$t" >>"$PROVIDER_TIMES"; rm -f "$t"; fi',
    'exit $code',
    '',
  ].join('\n'), { mode: 0o755 });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
})();

const seconds = (t) => { const [, m, s] = /(\d+)m([\d.]+)s/.exec(t); return Number(m) * 60 + Number(s); };

/** The CPU (user and system) of each `times` line in `file`: one per provider process. */
function providerProcessCpu(file) {
  if (!existsSync(file)) return { processes: 0, cpu: 0 };
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  return { processes: lines.length, cpu: lines.reduce((sum, line) => sum + line.trim().split(/\s+/).map(seconds).reduce((a, b) => a + b, 0), 0) };
}

/**
 * Runs terraform under bash's `times`, which reports the CPU of terraform and every child (providers, handlers);
 * `provider` is the part of it the provider's processes used.
 */
function terraform(cwd, env, args) {
  const timesFile = join(cwd, 'provider-times.txt');
  rmSync(timesFile, { force: true });
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn('bash', ['-c', 'terraform "$@" >"$OUT" 2>&1; code=$?; times; exit $code', 'bench', ...args], {
      cwd,
      env: {
        ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: join(__dirname, '..', 'test', 'e2e', 'terraform.rc'), OUT: join(cwd, 'terraform.out'),
        PATH: `${NODE_RECORDER}:${process.env.PATH}`, PROVIDER_TIMES: timesFile, ...(PROFILE_DIR && { PROVIDER_PROFILE_DIR: PROFILE_DIR }), ...env,
      },
    });
    let times = '';
    child.stdout.on('data', (d) => (times += d));
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const [user, sys] = times.trim().split('\n')[1].trim().split(/\s+/).map(seconds);
      resolve({ code, wall, cpu: user + sys, provider: providerProcessCpu(timesFile), output: readFileSync(join(cwd, 'terraform.out'), 'utf8') });
    });
  });
}

async function run(n, bridge, limits, lib = thisTree) {
  const base = defaultSeed();
  const template = base.servers[0];
  const servers = Array.from({ length: n }, (_, i) => ({ ...template, server: { ...template.server, id: `vps_bench_${i + 1}` }, firewall: { enabled: false, rulesets: [] } }));
  const sim = await startSimulator({ seed: { ...base, servers }, limits });
  const root = mkdtempSync(join(tmpdir(), 'bench-apply-'));
  /** The stack: every firewall `enabled` (then, for the change, every one turned off). */
  const synth = (enabled) => {
    const app = new App({ outdir: root });
    const stack = new TerraformStack(app, 'bench');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    if (bridge === FLOOR) {
      servers.forEach((s, i) => new DataResource(stack, `fw${i}`, { input: `${s.server.id} ${enabled}` }));
    } else {
      const api = new lib.HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl, bridge });
      servers.forEach((s, i) => new lib.ServerFirewall(stack, `fw${i}`, { api, serverId: s.server.id, enabled }));
    }
    app.synth();
  };
  try {
    synth(true);
    const cwd = join(root, 'stacks', 'bench');
    const env = { HOSTING_API_TOKEN: sim.tokens.full };
    await terraform(cwd, env, ['init', '-input=false', '-no-color']);
    const applyStarted = Date.now();
    // This process runs the simulator alone during the apply: its CPU is the API's, on the same cores as terraform.
    const cpuBefore = process.cpuUsage();
    const apply = await terraform(cwd, env, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10']);
    const cpuUsed = process.cpuUsage(cpuBefore);
    const simulatorCpu = (cpuUsed.user + cpuUsed.system) / 1e6;
    const applyEnded = Date.now();
    const requests = sim.requests.length;
    const refused = sim.requests.filter((r) => r.status === 429).length;
    // A failure is a resource Terraform reports as failed, whatever the simulator executed.
    const failed = (apply.output.match(/^Error: /gm) ?? []).length;
    const plan = await terraform(cwd, env, ['plan', '-input=false', '-no-color', '-parallelism=10', '-detailed-exitcode']);
    // A change of every resource, in one terraform apply (its plan and its apply).
    synth(false);
    const beforeChange = sim.requests.length;
    const change = await terraform(cwd, env, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10']);
    const changeRequests = sim.requests.length - beforeChange;
    // Every served request spends one unit of the per-token budget; the first window is free.
    const bound = Math.max(0, Math.ceil((requests - refused) / limits.requestsPerToken) - 1) * (WINDOW_MS / 1000);
    // From the apply's first request to its last: the part of the wall the pacer decides.
    const span = requests ? (sim.requests[requests - 1].at - sim.requests[0].at) / 1000 : 0;
    // The apply's wall around the API's span: Terraform and the provider before the first request and after the last.
    const around = requests ? { before: (sim.requests[0].at - applyStarted) / 1000, after: (applyEnded - sim.requests[requests - 1].at) / 1000 } : undefined;
    return { apply, plan, change, changeRequests, requests, refused, failed, bound, span, around, simulatorCpu };
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const f = (x, w = 6) => x.toFixed(1).padStart(w);

/** The provider processes' part of a run's CPU, per resource: what the provider costs beside Terraform. */
const ownCpu = (run, n) => (run.provider.processes
  ? ` (${run.provider.processes} provider processes ${run.provider.cpu.toFixed(1)} s, ${(1000 * run.provider.cpu / n).toFixed(1)} ms per resource; Terraform ${(run.cpu - run.provider.cpu).toFixed(1)} s)`
  : '');

async function sideBySide(n) {
  const results = [];
  for (const side of SIDES) {
    const r = await run(n, side.bridge, UNBOUND, side.lib);
    results.push({ ...side, r });
    console.log(
      `N=${String(n).padEnd(4)} ${`${side.bridge} (${side.name})`.padEnd(27)} apply wall ${f(r.apply.wall)} s cpu ${f(r.apply.cpu)} s${ownCpu(r.apply, n)}   ` +
      `no-op plan wall ${f(r.plan.wall)} s cpu ${f(r.plan.cpu)} s${ownCpu(r.plan, n)} (exit ${r.plan.code})   ` +
      `requests/resource ${(r.requests / n).toFixed(2)}   429s ${r.refused}   failed ${r.failed}${r.apply.code === 0 ? '' : `   terraform exit ${r.apply.code}`}   ` +
      `change of all: wall ${f(r.change.wall)} s cpu ${f(r.change.cpu)} s${ownCpu(r.change, n)}, requests/resource ${(r.changeRequests / n).toFixed(2)}${r.change.code === 0 ? '' : ` (exit ${r.change.code})`}` +
      (r.around ? `   apply: ${r.around.before.toFixed(1)} s before the first request, ${r.span.toFixed(1)} s of requests, ${r.around.after.toFixed(1)} s after the last; the simulator's CPU ${r.simulatorCpu.toFixed(1)} s` : ''),
    );
  }
  const bridge = results.find((s) => s.bridge === Bridge.TERRAFORM_DATA)?.r;
  const floor = results.find((s) => s.bridge === FLOOR)?.r;
  if (!bridge || !floor) return;
  const ratio = (x, y) => `${(x / y).toFixed(2)}x`;
  for (const { name, r: p } of results.filter((s) => s.bridge === Bridge.PROVIDER)) {
    console.log(
      `N=${String(n).padEnd(4)} provider (${name}): apply wall / bridge ${ratio(p.apply.wall, bridge.apply.wall)} (target <= 0.12x at N=300), ` +
      `/ Terraform alone ${ratio(p.apply.wall, floor.apply.wall)} (target <= 2x); no-op plan wall / bridge ${ratio(p.plan.wall, bridge.plan.wall)} (target <= 2x)`,
    );
  }
}

async function paced(n, limits, tree = TREES.at(-1)) {
  const r = await run(n, Bridge.PROVIDER, limits, tree.lib);
  console.log(
    `N=${String(n).padEnd(4)} provider (${tree.name}), budget ${limits.requestsPerToken}/${WINDOW_MS / 1000}s   wall ${f(r.apply.wall)} s   rate-limit bound ${f(r.bound, 5)} s   ` +
    `${r.bound > 0 ? `ratio ${(r.apply.wall / r.bound).toFixed(2)}x (target <= 1.1x)` : 'limits do not bind'}   first to last request ${f(r.span, 5)} s   ` +
    `requests/resource ${(r.requests / n).toFixed(2)}   429s ${r.refused}   failed ${r.failed}`,
  );
}

/**
 * Spawn as Terraform starts the provider: ms to the handshake line on stdout, and with `answer`, to
 * the first RPC's answer as well (GetProviderSchema over the handshake's mutual TLS, as Terraform asks
 * it first), which is what a process start costs Terraform in all.
 */
function startup(command, args, env, client, answer = false) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    const done = (result) => {
      child.kill();
      resolve(result);
    };
    child.stdout.once('data', (line) => {
      const handshake = elapsed();
      if (!answer) return done({ handshake });
      const [, , , address, , cert] = String(line).trim().split('|');
      const ca = certificatePem(Buffer.from(cert, 'base64'));
      const session = http2.connect(`https://${address}`, { ca, cert: client.certPem, key: client.keyPem, servername: 'localhost' });
      // The provider is killed once it answered: a reset after that is expected.
      session.on('error', () => undefined);
      const stream = session.request({ ':method': 'POST', ':path': '/tfplugin6.Provider/GetProviderSchema', 'content-type': 'application/grpc', te: 'trailers' });
      stream.on('data', () => undefined);
      stream.on('trailers', () => {
        const first = elapsed();
        session.close();
        done({ handshake, first });
      });
      stream.end(Buffer.alloc(5));
    });
    child.once('exit', () => done({ handshake: elapsed(), first: elapsed() }));
  });
}

/**
 * Median start-up to the handshake line and to the first answer: each tree's script (node on the
 * bundle), on this machine's node and on the Node releases users run (those cached here), and the
 * standalone executable of this machine's platform (built on demand, cached), in one run.
 */
async function startupBench() {
  const host = hostPlatform();
  const standalone = host && standaloneExecutablePath(host);
  const client = createServerCertificate();
  const env = { TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2', PLUGIN_CLIENT_CERT: client.certPem, PLUGIN_PROTOCOL_VERSIONS: '6' };
  const nodes = [[`node ${process.version}`, process.execPath], ...userNodes(host)];
  const cases = [
    ...TREES.flatMap((tree) => nodes.map(([name, node]) => ({ label: `script, ${tree.name}, ${name}`, command: node, args: [join(tree.dir, 'assets', 'provider', 'provider.js')] }))),
    ...(standalone ? [{ label: `standalone ${host}, this tree (Node ${NODE_RELEASE})`, command: standalone, args: [] }] : []),
  ];
  const runs = new Map(cases.map((c) => [c.label, []]));
  const bare = [];
  for (let i = 0; i < 9; i++) {
    for (const c of cases) runs.get(c.label).push(await startup(c.command, c.args, env, client, true));
    bare.push((await startup(process.execPath, ['-e', 'process.stdout.write("x")'], {})).handshake);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const range = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;
  console.log('\nprovider start-up, 9 runs each: to the handshake line (target <= 60 ms), and to the first answer (GetProviderSchema):');
  for (const [label, xs] of runs) {
    const handshake = xs.map((x) => x.handshake);
    const first = xs.map((x) => x.first);
    console.log(`  ${label.padEnd(44)} handshake median ${median(handshake).toFixed(0)} ms (${range(handshake)})   first answer median ${median(first).toFixed(0)} ms (${range(first)})`);
  }
  if (!standalone) console.log(`  standalone: no executable for ${process.platform}/${process.arch}`);
  console.log(`  bare node ${process.version}: ${median(bare).toFixed(0)} ms`);
}

/**
 * The Node releases users run, where this machine has them cached: the lines `scripts/with-node.js`
 * fetched (22 and 24), else the release the standalone carries.
 */
function userNodes(host) {
  const cache = defaultCacheDir(cacheEnv());
  const linesDir = join(cache, 'node-lines');
  const lines = existsSync(linesDir) ? readdirSync(linesDir).map((release) => [`node v${release}`, join(linesDir, release, 'node')]) : [];
  const standaloneNode = host ? [[`node v${NODE_RELEASE}`, join(cache, `node-${NODE_RELEASE}`, host, 'node')]] : [];
  const found = [...lines, ...standaloneNode].filter(([, file]) => existsSync(file));
  return found.filter(([name], i) => found.findIndex(([other]) => other === name) === i);
}

const cacheEnv = () => ({ CDKTF_SERVER_HOSTING_CACHE_DIR: join(__dirname, '..', 'node_modules', '.cache', 'cdktf-server-hosting'), ...process.env });

/** The cached standalone executable of `platform`, built first if it is not there yet. */
function standaloneExecutablePath(platform) {
  const cacheDir = defaultCacheDir(cacheEnv());
  const dir = mkdtempSync(join(tmpdir(), 'bench-standalone-'));
  const file = join(dir, 'provider');
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(file, standaloneExecutables(readStandaloneProgram(), [platform], { cacheDir, log: console.log }).get(platform), { mode: 0o755 });
  return file;
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
  if (only.includes('side')) {
    console.log('apply and no-op plan, -parallelism=10, rate limits that do not bind:');
    for (const n of sizes.length ? sizes : [10, 100, 300]) await sideBySide(n);
  }
  if (only.includes('paced')) {
    console.log(`\nthe provider under section 8's limits, time-scaled (${LIMITS.requestsPerToken} requests per ${WINDOW_MS / 1000} s per token):`);
    for (const n of sizes.length ? sizes : [100, 300]) for (const tree of TREES) await paced(n, LIMITS, tree);
    for (const tree of TREES) await paced(24, TIGHT, tree);
  }
  if (only.includes('startup')) await startupBench();
  if (only.includes('synth')) synthBench();
}

function synthBench() {
  const bare = synthMs((stack) => {
    for (let i = 0; i < 1000; i++) new DataResource(stack, `d${i}`, { input: { i } });
  });
  const constructs = synthMs((stack) => {
    const api = new HostingApi(stack, 'hosting', { bridge: Bridge.TERRAFORM_DATA });
    for (let i = 0; i < 1000; i++) new ServerFirewall(stack, `fw${i}`, { api, serverId: `vps_s_${i}`, enabled: true });
  });
  console.log(`\nsynth of 1,000: bare DataResources ${bare.toFixed(0)} ms, ServerFirewalls (terraform_data) ${constructs.toFixed(0)} ms, ratio ${(constructs / bare).toFixed(2)}x (target <= 1.5x)`);
}

main();
