// The simulator under steady load for a while, with live pages that never read (stalled browser
// tabs): its resident memory at the start, at its peak and at the end, requests per second and the
// 99th percentile latency. The simulator runs in a process of its own, so its memory is its own.
// Needs `npx projen compile`. Compare builds side by side by naming each one's lib/simulator:
// Usage: node bench/soak.js [seconds=180] [watchers=200] [lib/simulator ...]
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { request } = require('node:http');
const { join, resolve } = require('node:path');

const [seconds = 180, watchers = 200] = process.argv.slice(2, 4).map(Number);
const libs = process.argv.slice(4).map((lib) => resolve(lib));
const CONCURRENCY = 8;
const PATH_PADDING = 'p'.repeat(1_500);

/** Starts a simulator from `lib` in a child process, with rate limits out of the way; resolves to its pid and URL. */
function startSimulator(lib) {
  const script = `require(${JSON.stringify(lib)}).startSimulator({ limits: { requestsPerToken: 1e9, requestsPerAccount: 1e9 } })`
    + '.then((s) => console.log(JSON.stringify({ baseUrl: s.baseUrl, token: s.tokens.full })))';
  // Its stderr is dropped: an old build's end is reported as "crashed after N s", not as V8's stack.
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done) => child.stdout.once('data', (line) => done({ child, ...JSON.parse(line) })));
}

/** The process's resident memory in MB; 0 once it has ended. */
function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0;
  }
}

/** Opens the live page's event stream and never reads it. Resolves to the status it got. */
function stalledWatcher(origin, sockets) {
  return new Promise((done) => {
    const req = request(`${origin}/__simulator/events`, (res) => {
      res.pause();
      sockets.push(req);
      done(res.statusCode);
    });
    req.on('error', () => done(0));
    req.end();
  });
}

async function soak(lib) {
  const { child, baseUrl, token } = await startSimulator(lib);
  const started = Date.now();
  let ended;
  child.on('exit', () => (ended = (Date.now() - started) / 1000));
  const origin = new URL(baseUrl).origin;
  const start = rssMb(child.pid);
  const sockets = [];
  const statuses = await Promise.all(Array.from({ length: watchers }, () => stalledWatcher(origin, sockets)));
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid))), 250);
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < until && ended === undefined) {
      const sent = process.hrtime.bigint();
      try {
        const res = await fetch(`${baseUrl}/servers?${PATH_PADDING}${n++}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }));
  const elapsed = Math.min(seconds, ended ?? seconds);
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 1_000));
  const end = rssMb(child.pid);
  for (const socket of sockets) socket.destroy();
  child.kill();
  latencies.sort((a, b) => a - b);
  return {
    lib: lib.replace(`${process.cwd()}/`, ''),
    watching: statuses.filter((s) => s === 200).length,
    refused: statuses.filter((s) => s === 503).length,
    start: start.toFixed(0),
    peak: peak.toFixed(0),
    end: ended === undefined ? end.toFixed(0) : `crashed after ${ended.toFixed(0)} s`,
    rps: (latencies.length / elapsed).toFixed(0),
    p99: latencies[Math.floor(latencies.length * 0.99)].toFixed(1),
  };
}

async function main() {
  const rows = [];
  for (const lib of libs.length ? libs : [join(__dirname, '..', 'lib', 'simulator')]) rows.push(await soak(lib));
  console.log(`${seconds} s, ${CONCURRENCY} clients, GET /servers with ${PATH_PADDING.length}-byte queries, ${watchers} stalled live pages`);
  console.log('build | pages watching / refused | RSS start, peak, end (MB) | requests/s | p99 (ms)');
  for (const r of rows) console.log(`${r.lib} | ${r.watching} / ${r.refused} | ${r.start}, ${r.peak}, ${r.end} | ${r.rps} | ${r.p99}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
