import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`, at any depth. */
export const filesBelow = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesBelow(join(dir, name)) : [join(dir, name)]));
