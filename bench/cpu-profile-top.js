// The functions where the provider spends its CPU, from the .cpuprofile files its processes write
// under `node bench/apply.js --profile=DIR` (node's --cpu-prof): self time per function across
// every file, the top ones with their share. bench/apply.js prints the processes' whole CPU.
// Usage: node bench/apply.js --only=side --sides=provider --profile=/tmp/prof 300
//        node bench/cpu-profile-top.js /tmp/prof [top]
const { readdirSync, readFileSync } = require('node:fs');
const { basename, join } = require('node:path');

const [dir, top = '15'] = process.argv.slice(2);
const selfMs = new Map();
let total = 0;
for (const name of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  // Samples are node ids; each interval between samples is the time of that node alone.
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { callFrame } = nodes.get(id);
    const where = callFrame.url ? `${basename(callFrame.url)}:${callFrame.lineNumber + 1}` : '(native)';
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
    // Waiting (for Terraform, for the API) is no cost of the provider's.
    if (callFrame.functionName === '(idle)') return;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    total += ms;
  });
}
const rows = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, Number(top));
console.log(`CPU self time in ${dir}: ${(total / 1000).toFixed(2)} s in all, idle left out`);
for (const [key, ms] of rows) console.log(`${(100 * ms / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${key}`);
