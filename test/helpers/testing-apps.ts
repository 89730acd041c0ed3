import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Testing, type App } from 'cdktf';

/**
 * Testing apps whose folders go when the suite ends: cdktf's `Testing.app()` makes a folder in the
 * system's temporary folder for each app and never removes it (some 115 a run of `npm test`).
 */
export function useTestingApps(): () => App {
  let root: string | undefined;
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  return () => {
    root ??= mkdtempSync(join(tmpdir(), 'cdktf-test-apps-'));
    return Testing.app({ outdir: mkdtempSync(join(root, 'app-')) });
  };
}
