import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { DASHBOARD_REQUEST_ROWS } from '../../src/simulator/dashboard';
import { describeWithBrowser, launchChromium } from '../helpers/browser';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, firewallHcl, TerraformWorkspace } from '../helpers/terraform';

/*
 * The simulator's live page in Debian's chromium: what it shows, that it follows a terraform apply
 * without a reload, draws a 429 on the budget chart, shows hostile text as text, and carries no
 * token secret. One browser for the suite, a page per test.
 */

const HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';

describeWithBrowser('the simulator\'s live page, in chromium', () => {
  let browser: Browser;
  const simulators: RunningSimulator[] = [];
  /** Every URL any page asked for: all must be the simulator's own. */
  const fetched: string[] = [];

  const simulator = async (options: Parameters<typeof simulatorWithSentinel>[0] = {}) => {
    const sim = await simulatorWithSentinel(options);
    simulators.push(sim);
    return sim;
  };
  const open = async (sim: RunningSimulator): Promise<Page> => {
    const page = await browser.newPage();
    page.on('request', (request) => fetched.push(request.url()));
    await page.goto(sim.dashboardUrl);
    await page.waitForSelector('#servers tbody tr');
    return page;
  };
  const text = (page: Page, selector: string) => page.locator(selector).innerText();

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(simulators.map((sim) => sim.close()));
  });

  test('renders the seed account: servers, firewalls by rule set name, dedicated addresses, from the simulator alone', async () => {
    const sim = await simulator();
    const page = await open(sim);
    expect(await page.title()).toBe('Hosting API simulator');
    const web1 = page.locator('#servers tbody tr', { hasText: IDS.vpsRunning });
    expect(await web1.locator('td').allInnerTexts()).toEqual(['web-1', IDS.vpsRunning, 'vps', 'active', 'running', 'primary', 'disabled; rule sets: none', '']);
    expect(await text(page, '#addresses')).toContain('metal-1.example.com');
    expect(await text(page, '#addresses')).toContain('primary');
    expect(await page.locator('main section h2').allInnerTexts()).toEqual(['Account', 'Rate budget', 'Fault rules in force', 'Requests']);
    expect(await page.locator('#servers thead th[scope=col]').count()).toBe(8);
    const origin = new URL(sim.dashboardUrl).origin;
    expect(fetched.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    await page.close();
  });

  describeWithTerraform('while terraform applies', () => {
    test('a firewall change appears without a reload: the PUT in the timeline, the rule sets changed and highlighted', async () => {
      const sim = await simulator();
      const page = await open(sim);
      await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
      const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
      try {
        const env: Record<string, string> = {};
        ws.writeHcl(env, firewallHcl(sim.baseUrl));
        expect((await ws.terraform(['init', '-input=false', '-no-color'], { env })).code).toBe(0);
        const apply = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env });
        expect(apply.code).toBe(0);
      } finally {
        ws.dispose();
      }
      const put = page.locator('#requests tbody tr', { hasText: `/servers/${IDS.vpsRunning}/firewall` }).filter({ hasText: 'PUT' });
      await put.first().waitFor();
      const cells = await put.first().locator('td').allInnerTexts();
      expect(cells.slice(1, 5)).toEqual(['sentinel', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, '200']);
      expect(cells[5]).toMatch(/\S{8,}/);
      expect(cells[8]).toBe('firewall: {"enabled":true,"rulesets":[1]}');
      const row = page.locator('#servers tbody tr', { hasText: IDS.vpsRunning });
      await page.waitForFunction((id) => [...document.querySelectorAll('#servers tbody tr.changed')].some((tr) => tr.textContent!.includes(id)), IDS.vpsRunning);
      expect(await row.locator('td.firewall').innerText()).toBe('enabled; rule sets: web (1)');
      expect(await row.locator('td').nth(7).innerText()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
      expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);

      await page.selectOption('#server-filter', IDS.vdsRunning);
      expect(await put.first().isHidden()).toBe(true);
      await page.close();
    });
  });

  test('under a tight limit, the 429 is on the budget chart and in the timeline with its Retry-After', async () => {
    const sim = await simulator({ limits: { requestsPerToken: 3, windowMs: 60_000 } });
    const page = await open(sim);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${sim.baseUrl}/servers`, { headers: { authorization: `Bearer ${SENTINEL_TOKEN}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const chart = page.locator('#budgets figure', { hasText: 'token sentinel: 3 per window' }).locator('svg');
    await page.waitForFunction(() => document.querySelector('#budgets svg[data-refused="2"]') !== null);
    expect(await chart.getAttribute('aria-label')).toBe('token sentinel: 3 of 3 in the current window; 2 refused in the last 1 windows');
    expect(await chart.locator('rect.refused').count()).toBe(1);
    const refused = page.locator('#requests tbody tr.error', { hasText: '429 rate_limited' });
    expect(await refused.count()).toBe(2);
    expect(await refused.first().locator('td').nth(7).innerText()).toMatch(/^\d+ s$/);
    await page.close();
  });

  test('a description holding markup shows as text, and runs nothing', async () => {
    const sim = await simulator();
    const page = await open(sim);
    sim.drift(IDS.dedicated, { ip: { address: IPS.primary, description: HOSTILE } });
    const row = page.locator('#addresses tbody tr', { hasText: IPS.primary });
    await page.waitForFunction(() => document.querySelector('#addresses tr.changed') !== null);
    expect(await row.locator('td.description').innerText()).toBe(HOSTILE);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('main img, main script').count()).toBe(0);
    await page.close();
  });

  test('no token secret anywhere in the page, after requests with every token', async () => {
    const sim = await simulator();
    const page = await open(sim);
    const secrets = [SENTINEL_TOKEN, ...Object.values(sim.tokens)];
    for (const secret of secrets) await fetch(`${sim.baseUrl}/servers`, { headers: { authorization: `Bearer ${secret}` } });
    await page.waitForFunction((n) => document.querySelectorAll('#requests tbody tr').length >= n, secrets.length);
    const html = await page.content();
    const events = await page.evaluate(async () => {
      const controller = new AbortController();
      const response = await fetch('events', { signal: controller.signal });
      const reader = response.body!.getReader();
      const { value } = await reader.read();
      controller.abort();
      return new TextDecoder().decode(value);
    });
    expect(events).toContain('event: update');
    for (const secret of secrets) {
      expect(html).not.toContain(secret);
      expect(events).not.toContain(secret);
    }
    await page.close();
  });

  test('a simulator with more requests than the page holds: the newest rows, and how many there are in all', async () => {
    const sim = await simulator();
    const page = await open(sim);
    const total = DASHBOARD_REQUEST_ROWS + 20;
    // Without a token: refused before any budget counts them, so the limits do not slow this down.
    for (let i = 0; i < total; i++) await fetch(`${sim.baseUrl}/servers?n=${i}`);
    await page.waitForFunction((n) => document.getElementById('request-count')!.textContent!.includes(`of ${n} `), total);
    expect(await page.locator('#requests tbody tr').count()).toBe(DASHBOARD_REQUEST_ROWS);
    expect(await page.locator('#requests tbody tr').first().locator('td.path').innerText()).toBe(`/servers?n=${total - 1}`);
    expect(await text(page, '#request-count')).toBe(`The newest ${DASHBOARD_REQUEST_ROWS} of ${total} requests. GET /__simulator/requests answers with all of them.`);
    const late = await open(sim);
    expect(await late.locator('#requests tbody tr').count()).toBe(DASHBOARD_REQUEST_ROWS);
    await Promise.all([page.close(), late.close()]);
  });

  test('a log smaller than the requests says how many it let go', async () => {
    const sim = await simulator({ requestLogSize: 600 });
    const page = await open(sim);
    for (let i = 0; i < 650; i++) await fetch(`${sim.baseUrl}/servers?n=${i}`);
    // The page redraws as requests arrive: wait for the view of all 650, not the first one that drops some.
    await page.waitForFunction(() => document.getElementById('request-count')!.textContent!.includes('of 650 requests'));
    expect(await text(page, '#request-count')).toBe(`The newest ${DASHBOARD_REQUEST_ROWS} of 650 requests. The simulator keeps the newest 600 (at most 600, and 4 MB; 50 dropped); GET /__simulator/requests answers with those.`);
    await page.close();
  });

  test('a page on another site cannot add a fault or mint a token, by a form or a no-cors fetch', async () => {
    const sim = await simulator();
    // Another site the developer visits: a server of its own on another port.
    const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title><body></body>'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const evil = await browser.newPage();
    await evil.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    await evil.evaluate(async (control) => {
      await fetch(`${control}/faults`, { method: 'POST', mode: 'no-cors', body: '{"effect":{"type":"error","status":503}}' });
      await fetch(`${control}/tokens`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"scopes":["servers:power"]}' });
      const form = document.createElement('form');
      form.method = 'POST';
      form.enctype = 'text/plain';
      form.action = `${control}/faults`;
      document.body.append(form);
      form.submit();
    }, sim.controlUrl);
    await evil.waitForURL(`${sim.controlUrl}/faults`);
    expect(await evil.locator('body').innerText()).toContain('control requests are accepted from the simulator\'s own pages only');
    expect((await fetch(`${sim.baseUrl}/servers`, { headers: { authorization: `Bearer ${sim.tokens.full}` } })).status).toBe(200);
    expect(sim.addFault({ effect: { type: 'stale' } })).toBe(1);
    await evil.close();
    site.close();
  });

  test('the fault rules in force, cleared from the keyboard; the page changes nothing else', async () => {
    const sim = await simulator();
    const page = await open(sim);
    sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 2, effect: { type: 'error', status: 503 } });
    await page.waitForSelector('#fault-rules tbody tr');
    expect(await page.locator('#fault-rules tbody tr td').allInnerTexts()).toEqual(['1', 'PUT /servers/{serverId}/firewall', 'any', '{"type":"error","status":503}', '2']);
    await page.focus('#clear-faults');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#fault-rules tbody tr').length === 0);
    expect(await text(page, '#clear-result')).toBe('Fault rules cleared.');
    expect(await (await fetch(`${sim.controlUrl}/requests`)).json()).toEqual([]);
    expect(sim.executed()).toEqual([]);
    await page.close();
  });

  test('readable in the light and the dark colour scheme', async () => {
    const sim = await simulator();
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ colorScheme });
      await page.goto(sim.dashboardUrl);
      backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      await page.close();
    }
    expect(backgrounds).toEqual(['rgb(255, 255, 255)', 'rgb(13, 17, 23)']);
  });
});
