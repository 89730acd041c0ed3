import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How many provider processes recorded each change they planned (run-notes.ts), in the run notes
 * the provider processes of terraform runs wrote with TMPDIR=`tmp`. The walk proof rests on each
 * walk having provider processes of its own: an apply's re-plan of a change is then made by
 * another process than its plan, and each planned change is in two files per apply.
 */
export function processesPlanning(tmp: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const folder of readdirSync(tmp).filter((name) => name.startsWith('cdktf-server-hosting-'))) {
    for (const name of readdirSync(join(tmp, folder)).filter((n) => /^run-[0-9a-f]+-\d+\.json$/.test(n))) {
      const file = JSON.parse(readFileSync(join(tmp, folder, name), 'utf8')) as { changes?: string[]; closed?: boolean };
      if (!file.closed) throw new Error(`${name}: a provider process ended without closing its run notes`);
      for (const change of file.changes ?? []) counts[change] = (counts[change] ?? 0) + 1;
    }
  }
  return counts;
}
