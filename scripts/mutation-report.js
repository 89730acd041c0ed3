// The mutation score as the design guide keeps it (issue 59 §3), from Stryker's JSON report: killed
// and surviving mutants apart from time-outs, which on a loaded two-core machine say nothing about
// the tests. A time-out is no kill: this prints the command that runs the time-outs again alone,
// one at a time with a longer limit; this script then reads that run's report when given its path.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const file = process.argv.find((a) => a.endsWith('.json')) ?? join(__dirname, '..', 'reports', 'mutation', 'mutation.json');
const report = JSON.parse(readFileSync(file, 'utf8'));
const mutants = Object.entries(report.files).flatMap(([path, f]) => f.mutants.map((m) => ({ ...m, path })));
const count = (status) => mutants.filter((m) => m.status === status).length;
const where = (m) => `${m.path}:${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}`;
// Stryker takes one --mutate, a comma-separated list; its columns count from 0 where the report's count
// from 1. The mutant's own span, so only it (and mutants nested in it) run again, not its whole lines.
const spanOf = (m) => `${m.path}:${m.location.start.line}:${m.location.start.column - 1}-${m.location.end.line}:${m.location.end.column - 1}`;

const killed = count('Killed');
const survived = mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage');
const timedOut = mutants.filter((m) => m.status === 'Timeout');
const decided = killed + survived.length;
process.stdout.write([
  `mutants: ${mutants.length}; killed ${killed}, survived ${count('Survived')}, no coverage ${count('NoCoverage')}, timed out ${timedOut.length}, `
    + `compile or runtime errors ${count('CompileError') + count('RuntimeError')}`,
  `score (killed of killed and surviving; time-outs apart): ${decided ? ((100 * killed) / decided).toFixed(1) : 'n/a'}%`,
  ...survived.map((m) => `survived: ${where(m)} ${m.mutatorName}${m.replacement ? ` -> ${JSON.stringify(m.replacement)}` : ''}`),
  ...(timedOut.length ? [
    'timed out (not counted as killed); run them again alone:',
    `  INTENT_MODEL_RUNS=25 npx stryker run --concurrency 1 --timeoutMS 120000 --mutate ${JSON.stringify([...new Set(timedOut.map(spanOf))].join(','))}`,
  ] : []),
].join('\n') + '\n');
