/* istanbul ignore file -- the page's script is served as the text of dashboardScript: instrumented, it would call the coverage counter in the browser */
// @ts-nocheck -- dashboardScript runs in the browser, where the DOM is; this package compiles without the DOM's types
/* eslint-disable @typescript-eslint/no-shadow */

/*
 * The simulator's live page, served at /__simulator/: three files, all in the package, nothing
 * fetched from elsewhere. No library: the page is four tables and one bar chart per rate budget,
 * which the DOM and SVG draw in a few lines each, and a dependency would be one more thing to ship,
 * pin and audit for that. Every text from the account or a request is set as textContent, never as
 * markup, and the Content-Security-Policy allows scripts and styles from this page's own files only.
 */

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Hosting API simulator</title>
<link rel="icon" href="favicon.svg">
<link rel="stylesheet" href="dashboard.css">
<script src="dashboard.js" defer></script>
</head>
<body>
<header>
  <h1>Hosting API simulator</h1>
  <p id="connection" role="status" aria-live="polite">Connecting…</p>
  <nav aria-label="Sections">
    <a href="#account">Account</a> <a href="#budget">Rate budget</a> <a href="#faults">Faults</a> <a href="#timeline">Requests</a>
  </nav>
</header>
<main>
  <section id="account" aria-labelledby="account-heading">
    <h2 id="account-heading">Account</h2>
    <table id="servers">
      <caption>Servers (a changed row is highlighted)</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Power</th><th scope="col">Access role</th><th scope="col">Firewall</th><th scope="col">Changed</th></tr></thead>
      <tbody></tbody>
    </table>
    <table id="addresses">
      <caption>Dedicated addresses</caption>
      <thead><tr><th scope="col">Server</th><th scope="col">Address</th><th scope="col">Reverse DNS</th><th scope="col">Description</th><th scope="col">DDoS protection</th><th scope="col">Changed</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section id="budget" aria-labelledby="budget-heading">
    <h2 id="budget-heading">Rate budget</h2>
    <p>Requests counted in each window (<span id="window-length"></span>) against the budget's limit, the dashed line;
      <span class="refused-key">red</span>: requests refused with 429 because it was spent.</p>
    <div id="budgets"></div>
  </section>
  <section id="faults" aria-labelledby="faults-heading">
    <h2 id="faults-heading">Fault rules in force</h2>
    <table id="fault-rules">
      <caption>Rules added through POST /__simulator/faults</caption>
      <thead><tr><th scope="col">Id</th><th scope="col">Endpoint</th><th scope="col">Server</th><th scope="col">Effect</th><th scope="col">Times left</th></tr></thead>
      <tbody></tbody>
    </table>
    <p><button type="button" id="clear-faults">Clear all fault rules</button> <span id="clear-result" role="status"></span></p>
  </section>
  <section id="timeline" aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Requests</h2>
    <p><label for="server-filter">Server</label>
      <select id="server-filter"><option value="">All servers</option></select></p>
    <p id="request-count" role="status"></p>
    <table id="requests">
      <caption>Requests, newest first, with the writes and actions each carried out</caption>
      <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Token</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Idempotency key</th><th scope="col">Replay</th><th scope="col">Retry-After</th><th scope="col">Carried out</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
</main>
</body>
</html>
`;

/** The page's own icon: without one, the browser asks the API for /favicon.ico, and the timeline shows that 401. */
export const DASHBOARD_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2f6fbf"/></svg>\n';

export const DASHBOARD_CSS = `:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --changed: #fff3bf; --bar: #2f6fbf; --refused: #c62828; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --changed: #5c4a00; --bar: #58a6ff; --refused: #ff6b6b; }
}
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 1.5rem 2rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
nav a { margin-right: 1rem; color: inherit; }
#connection { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 0 0 1.5rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.path, td.key { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
tr.changed { background: var(--changed); }
tr.error td.status { color: var(--refused); font-weight: 600; }
figure { display: inline-block; margin: 0 1.5rem 1rem 0; }
figcaption { font-weight: 600; }
svg .bar { fill: var(--bar); }
svg .refused { fill: var(--refused); }
svg .limit { stroke: var(--fg); stroke-dasharray: 4 3; }
.refused-key { color: var(--refused); font-weight: 600; }
button { font: inherit; padding: 0.3rem 0.8rem; }
:focus-visible { outline: 3px solid var(--bar); outline-offset: 2px; }
`;

/** The page's script. Served as the text of this function: it runs in the browser and uses nothing outside it. */
export function dashboardScript(): void {
  const serverRows = new Map();
  const addressRows = new Map();
  const seen = new Map();
  let first = true;

  const $ = (id) => document.getElementById(id);
  const time = (ms) => new Date(ms).toISOString().slice(11, 23);
  const cell = (row, text, className) => {
    const td = row.insertCell();
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (className) td.className = className;
    return td;
  };

  function showChange(key, row, value, changedCell, now) {
    const before = seen.get(key);
    seen.set(key, value);
    if (first || before === undefined || before === value) return;
    row.classList.add('changed');
    changedCell.textContent = time(now);
  }

  function renderServers(view) {
    const body = $('servers').tBodies[0];
    const addresses = $('addresses').tBodies[0];
    const filter = $('server-filter');
    for (const server of view.servers) {
      let row = serverRows.get(server.id);
      if (!row) {
        row = body.insertRow();
        for (let i = 0; i < 8; i++) row.insertCell();
        serverRows.set(server.id, row);
        const option = document.createElement('option');
        option.value = server.id;
        option.textContent = `${server.name} (${server.id})`;
        filter.append(option);
      }
      const firewall = server.firewall
        ? `${server.firewall.enabled ? 'enabled' : 'disabled'}; rule sets: ${server.firewall.rulesets.map((r) => `${r.name ?? 'unknown'} (${r.id})`).join(', ') || 'none'}`
        : '';
      const texts = [server.name, server.id, server.type, server.status, server.power, server.accessRole, firewall];
      texts.forEach((text, i) => (row.cells[i].textContent = text));
      row.cells[6].className = 'firewall';
      showChange(`server ${server.id}`, row, JSON.stringify(texts), row.cells[7], view.now);
      for (const ip of server.addresses) {
        const key = `${server.id} ${ip.address}`;
        let ipRow = addressRows.get(key);
        if (!ipRow) {
          ipRow = addresses.insertRow();
          for (let i = 0; i < 6; i++) ipRow.insertCell();
          addressRows.set(key, ipRow);
        }
        const ipTexts = [server.name, ip.address, ip.rdns ?? '', ip.description ?? '', ip.protection];
        ipTexts.forEach((text, i) => (ipRow.cells[i].textContent = text));
        ipRow.cells[3].className = 'description';
        showChange(`address ${key}`, ipRow, JSON.stringify(ipTexts), ipRow.cells[5], view.now);
      }
    }
  }

  function renderRequests(view) {
    const body = $('requests').tBodies[0];
    for (const request of view.requests) {
      const row = body.insertRow(0);
      row.dataset.serverId = request.serverId ?? '';
      if (request.status >= 400 || request.dropped) row.classList.add('error');
      cell(row, time(request.at));
      cell(row, request.tokenName ?? '(no token)');
      cell(row, request.method);
      cell(row, request.path, 'path');
      cell(row, request.dropped ? `${request.status}, connection dropped` : request.code ? `${request.status} ${request.code}` : request.status, 'status');
      cell(row, request.idempotencyKey, 'key');
      cell(row, request.replayed ? 'replayed' : '');
      cell(row, request.retryAfterSeconds === undefined ? '' : `${request.retryAfterSeconds} s`);
      cell(row, (request.carriedOut ?? []).join('; '), 'carried-out');
    }
    while (body.rows.length > view.requestRows) body.deleteRow(-1);
    $('request-count').textContent = view.requestCount > body.rows.length
      ? `The newest ${body.rows.length} of ${view.requestCount} requests; GET /__simulator/requests answers with all of them.`
      : `${view.requestCount} ${view.requestCount === 1 ? 'request' : 'requests'}.`;
    applyFilter();
  }

  function applyFilter() {
    const serverId = $('server-filter').value;
    for (const row of $('requests').tBodies[0].rows) row.hidden = serverId !== '' && row.dataset.serverId !== serverId;
  }

  function renderBudgets(view) {
    const svgNs = 'http://www.w3.org/2000/svg';
    const container = $('budgets');
    $('window-length').textContent = `${view.windowMs / 1000} s`;
    container.replaceChildren(...view.budgets.map((budget) => {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = `${budget.label}: ${budget.limit} per window`;
      const current = budget.windows[budget.windows.length - 1];
      const refused = budget.windows.reduce((sum, w) => sum + w.refused, 0);
      const svg = document.createElementNS(svgNs, 'svg');
      const width = 30 * 12;
      const height = 120;
      svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
      svg.setAttribute('width', String(width));
      svg.setAttribute('height', String(height));
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', `${budget.label}: ${current.count} of ${budget.limit} in the current window; ${refused} refused in the last ${budget.windows.length} windows`);
      svg.dataset.refused = String(refused);
      const top = Math.max(budget.limit, ...budget.windows.map((w) => w.count + w.refused));
      const y = (n) => height - (n / top) * (height - 10);
      budget.windows.forEach((w, i) => {
        const bar = document.createElementNS(svgNs, 'rect');
        bar.setAttribute('class', 'bar');
        bar.setAttribute('x', String(i * 12 + 1));
        bar.setAttribute('width', '10');
        bar.setAttribute('y', String(y(w.count)));
        bar.setAttribute('height', String(height - y(w.count)));
        const title = document.createElementNS(svgNs, 'title');
        title.textContent = `window from ${time(w.start)}: ${w.count} counted, ${w.refused} refused`;
        bar.append(title);
        svg.append(bar);
        if (w.refused > 0) {
          const mark = document.createElementNS(svgNs, 'rect');
          mark.setAttribute('class', 'refused');
          mark.setAttribute('x', String(i * 12 + 1));
          mark.setAttribute('width', '10');
          mark.setAttribute('y', String(y(w.count + w.refused)));
          mark.setAttribute('height', String(y(w.count) - y(w.count + w.refused)));
          svg.append(mark);
        }
      });
      const limit = document.createElementNS(svgNs, 'line');
      limit.setAttribute('class', 'limit');
      limit.setAttribute('x1', '0');
      limit.setAttribute('x2', String(width));
      limit.setAttribute('y1', String(y(budget.limit)));
      limit.setAttribute('y2', String(y(budget.limit)));
      svg.append(limit);
      figure.append(caption, svg);
      return figure;
    }));
  }

  function renderFaults(view) {
    const body = $('fault-rules').tBodies[0];
    body.replaceChildren();
    for (const { id, rule, remaining } of view.faults) {
      const row = body.insertRow();
      cell(row, id);
      cell(row, rule.endpoint ?? '* *');
      cell(row, rule.serverId ?? 'any');
      cell(row, JSON.stringify(rule.effect));
      cell(row, remaining === null ? 'no limit' : remaining);
    }
    $('clear-faults').disabled = view.faults.length === 0;
  }

  function reset() {
    for (const id of ['servers', 'addresses', 'requests']) $(id).tBodies[0].replaceChildren();
    for (const map of [serverRows, addressRows, seen]) map.clear();
    $('server-filter').replaceChildren($('server-filter').options[0]);
    first = true;
  }

  function render(view) {
    renderServers(view);
    renderRequests(view);
    renderBudgets(view);
    renderFaults(view);
    first = false;
    $('connection').textContent = `Live: updated ${time(view.now)} UTC`;
  }

  $('server-filter').addEventListener('change', applyFilter);
  $('clear-faults').addEventListener('click', async () => {
    const answer = await fetch('faults', { method: 'DELETE' });
    $('clear-result').textContent = answer.ok ? 'Fault rules cleared.' : `Clearing failed: ${answer.status}`;
  });
  let connected = false;
  const events = new EventSource('events');
  // A new connection (the simulator restarted, say) sends everything again: start the page afresh.
  events.addEventListener('open', () => {
    if (connected) reset();
    connected = true;
  });
  events.addEventListener('update', (event) => render(JSON.parse(event.data)));
  events.addEventListener('error', () => ($('connection').textContent = 'Disconnected: the simulator has stopped, or is restarting.'));
}

/** The script file: the function above, called. */
export const DASHBOARD_SCRIPT = `(${dashboardScript.toString()})();\n`;
