import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, which `npx projen browser:install` installs. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `describe` for suites that drive a real browser. Without chromium they are skipped with a visible
 * message, except under CI=true, where a missing browser is a failure.
 */
export function describeWithBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      test('chromium is installed', () => {
        throw new Error(`${CHROMIUM} was not found; "npx projen browser:install" installs Debian's chromium`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`SKIPPED: "${name}" needs ${CHROMIUM} ("npx projen browser:install" installs it)`);
  describe.skip(name, body);
}

/** Headless chromium as a container runs it: no sandbox (root), no GPU, nothing fetched in the background. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
