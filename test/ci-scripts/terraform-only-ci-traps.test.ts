import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The testing guide's terraform-only-ci.sh ends on Ctrl-C or a runner's stop, though `terraform
 * test` interrupted by SIGINT exits 0: its INT and TERM traps, run with a stand-in for terraform that
 * exits 0 on SIGINT, as Terraform does.
 */
const SCRIPT = readFileSync(join(__dirname, '..', '..', 'examples', 'testing', 'hcl', 'terraform-only-ci.sh'), 'utf8');
const traps = SCRIPT.split('\n').filter((line) => /^trap '[^']*' (INT|TERM)$/.test(line));

test.each([['SIGINT', 130], ['SIGTERM', 143]] as const)('%s to the job ends it with %d, not with the next step', async (signal, code) => {
  expect(traps).toHaveLength(2);
  // The stand-in: it ends cleanly on the signal, then the job would go on to its next step.
  const job = `set -euo pipefail\n${traps.join('\n')}\nbash -c 'trap "kill %1; exit 0" INT TERM; sleep 30 & wait'\necho next-step`;
  const child = spawn('bash', ['-c', job], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(-child.pid!, signal);
  const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect([exit, out]).toEqual([code, '']);
});
