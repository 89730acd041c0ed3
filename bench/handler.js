// The handler as Terraform runs it, one process per resource:
// - start-up against bare `node -e ''` (median of repeated spawns, as a ratio), and bundle size;
// - requests per resource, in sync and with a change, for each kind, against the simulator.
// Needs a build (lib/ and assets/): npx projen compile. Usage: node bench/handler.js [runs]
const { spawnSync, spawn } = require('node:child_process');
const { statSync } = require('node:fs');
const { join } = require('node:path');

const runs = Number(process.argv[2] ?? 21);
const handler = join(__dirname, '..', 'assets', 'handler', 'index.js');

function timeMs(args) {
  const start = process.hrtime.bigint();
  spawnSync(process.execPath, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Interleaved, so both figures see the same machine state; with no command the handler loads
// every module, then prints its usage: start-up alone.
timeMs(['-e', '']);
timeMs([handler]);
const bareTimes = [];
const handlerTimes = [];
for (let i = 0; i < runs; i++) {
  bareTimes.push(timeMs(['-e', '']));
  handlerTimes.push(timeMs([handler]));
}
const bare = median(bareTimes);
const started = median(handlerTimes);
const size = statSync(handler).size;
console.log(`runs per figure:          ${runs}`);
console.log(`node -e '' (median):      ${bare.toFixed(1)} ms`);
console.log(`handler start (median):   ${started.toFixed(1)} ms`);
console.log(`ratio:                    ${(started / bare).toFixed(2)}x (target <= 1.50x)`);
console.log(`bundle size:              ${(size / 1024).toFixed(0)} KiB`);

function runHandler(sim, doc) {
  const env = {
    PATH: process.env.PATH,
    HOSTING_RESOURCE: JSON.stringify({ version: 1, api: { tokenEnvVar: 'BENCH_TOKEN', baseUrl: sim.baseUrl }, ...doc }),
    BENCH_TOKEN: sim.tokens.full,
    HOSTING_INSTANCE_ID: `bench-${Math.random()}`,
    HOSTING_FIRST_PLANNED_AT: 'a',
    HOSTING_PLANNED_AT: 'b',
  };
  return new Promise((resolve) => spawn(process.execPath, [handler, 'apply'], { env, stdio: 'ignore' }).on('close', resolve));
}

async function requestsPerResource() {
  const { startSimulator, SEED_SERVER_IDS: ids, SEED_DEDICATED_IPS: ips } = require('../lib/simulator');
  const timeouts = { readySeconds: 30, operationSeconds: 30 };
  const cases = [
    ['firewall, in sync', { kind: 'firewall', serverId: ids.vpsRunning, desired: { enabled: false } }],
    ['firewall, enabled changed', { kind: 'firewall', serverId: ids.vpsRunning, desired: { enabled: true } }],
    ['firewall, rule sets changed', { kind: 'firewall', serverId: ids.vpsRunning, desired: { rulesets: [1, 2] } }],
    ['ip settings, in sync', { kind: 'ip_settings', serverId: ids.dedicated, ip: ips.primary, desired: { description: 'primary' } }],
    ['ip settings, 2 fields changed', { kind: 'ip_settings', serverId: ids.dedicated, ip: ips.secondary, desired: { rdns: 'b.example.com', description: 'b' } }],
    ['power, in sync', { kind: 'power_state', serverId: ids.vpsRunning, desired: { state: 'running' }, stopMethod: 'shutdown', forceStopFallback: false, timeouts }],
    ['power, stop (polls included)', { kind: 'power_state', serverId: ids.vpsRunning, desired: { state: 'stopped' }, stopMethod: 'shutdown', forceStopFallback: false, timeouts }],
    ['reboot (polls included)', { kind: 'reboot', serverId: ids.vdsRunning, hard: false, timeouts }],
  ];
  console.log('\nrequests per resource (reads + writes):');
  for (const [name, doc] of cases) {
    const sim = await startSimulator({ operationDelays: { queuedMs: 100, runningMs: 400 } });
    const code = await runHandler(sim, doc);
    const reads = sim.requests.filter((r) => r.method === 'GET').length;
    const writes = sim.requests.length - reads;
    console.log(`  ${name.padEnd(32)} ${String(reads + writes).padStart(2)} (${reads} reads, ${writes} writes)${code === 0 ? '' : `  exit ${code}`}`);
    await sim.close();
  }
}

requestsPerResource();
