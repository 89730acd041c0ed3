// Screenshots of the simulator's live page for the docs (npx projen docs:screenshots): a simulator
// with a small rate budget and a clock that this script moves, a page opened in Debian's chromium,
// then a run the page follows live: reads, a firewall write and its replay, requests past the
// budget (429), a fault rule, and a change made in the control panel. Light and dark, into the
// folder given (docs/images). Needs `npx projen compile` and chromium (`npx projen browser:install`).
const { mkdirSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { chromium } = require('playwright-core');
const { startSimulator, SEED_SERVER_IDS: IDS, SEED_DEDICATED_IPS: IPS } = require('../lib/simulator');

const out = resolve(process.argv[2] ?? 'docs/images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WINDOW_MS = 60_000;

async function main() {
  let clock = Date.parse('2026-11-24T09:00:00Z');
  const sim = await startSimulator({ now: () => clock, limits: { requestsPerToken: 10, windowMs: WINDOW_MS } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'] });
  try {
    const pages = await Promise.all(['light', 'dark'].map(async (colorScheme) => {
      const page = await browser.newPage({ colorScheme, viewport: { width: 1280, height: 1150 } });
      await page.goto(sim.dashboardUrl);
      await page.waitForSelector('#servers tbody tr');
      return { colorScheme, page };
    }));
    const api = (method, path, { body, key } = {}) => fetch(`${sim.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${sim.tokens.full}`, 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) },
      body: body && JSON.stringify(body),
    });
    // Windows of reads, one of them past the budget, as a long plan would make them without pacing.
    for (const count of [3, 6, 10, 12, 4]) {
      for (let i = 0; i < count; i++) await api('GET', i % 2 ? '/servers' : `/servers/${IDS.vpsRunning}/firewall`);
      clock += WINDOW_MS;
    }
    const write = { body: { enabled: true, rulesets: [1, 2] }, key: 'apply-7f3a-firewall-vps_web_1' };
    await api('PUT', `/servers/${IDS.vpsRunning}/firewall`, write);
    await api('PUT', `/servers/${IDS.vpsRunning}/firewall`, write);
    sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 503 } });
    sim.drift(IDS.dedicated, { ip: { address: IPS.secondary, rdns: 'changed-in-the-panel.example.net' } });
    await new Promise((done) => setTimeout(done, 500));
    mkdirSync(out, { recursive: true });
    for (const { colorScheme, page } of pages) {
      const file = join(out, `simulator-live-page-${colorScheme}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`${file}\n`);
    }
  } finally {
    await browser.close();
    await sim.close();
  }
}

main().catch((err) => {
  process.stderr.write(`dashboard-screenshots: ${err.stack ?? err}\n`);
  process.exit(1);
});
