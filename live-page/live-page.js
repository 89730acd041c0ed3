// The simulator's live page (/__simulator/): the account, the requests, the rate budget and the fault rules,
// updated by server-sent events. Every text from the account or a request is set as textContent, never as markup.

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
  $('request-count').textContent = requestCountText(view, body.rows.length);
  applyFilter();
}

/** How many requests the table shows, of how many the simulator answered and still keeps. */
function requestCountText(view, shown) {
  const all = `${view.requestCount} ${view.requestCount === 1 ? 'request' : 'requests'}`;
  const dropped = view.requestsDropped > 0
    ? ` The simulator keeps the newest ${view.requestsKept} (at most ${view.requestLogSize}, and ${Math.round(view.requestLogBytes / 1048576)} MB; ${view.requestsDropped} dropped); GET /__simulator/requests answers with those.`
    : ' GET /__simulator/requests answers with all of them.';
  return view.requestCount > shown ? `The newest ${shown} of ${all}.${dropped}` : `${all}.`;
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
  // JSON from this page's own origin: what the simulator asks of every control request that changes something.
  const answer = await fetch('faults', { method: 'DELETE', headers: { 'content-type': 'application/json' } });
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
