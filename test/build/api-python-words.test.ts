import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { inPythonWords, pythonSpan } = require('../../scripts/api-python-words.js') as {
  inPythonWords: (markdown: string) => string;
  pythonSpan: (code: string) => string;
};

test.each([
  ['TerraformIterator.fromList(servers.ids)', 'TerraformIterator.from_list(servers.ids)'],
  ['preventDestroy', 'prevent_destroy'],
  ['importExisting()', 'import_existing()'],
  ['TerraformIterator', 'TerraformIterator'],
  ['servers:read', 'servers:read'],
  ['HOSTING_API_TOKEN', 'HOSTING_API_TOKEN'],
  ['GET /servers/{serverId}', 'GET /servers/{serverId}'],
])('the code span %j reads %j in Python', (typescript, python) => {
  expect(pythonSpan(typescript)).toBe(python);
});

test('only code spans change: the HTML jsii-docgen writes (anchors named after the TypeScript members) stays', () => {
  const row = '| <code><a href="#x.PowerState.property.rebootResource">reboot_resource</a></code> | when `rebootTriggers` is set |';
  expect(inPythonWords(row)).toBe('| <code><a href="#x.PowerState.property.rebootResource">reboot_resource</a></code> | when `reboot_triggers` is set |');
});

test('API.python.md, as committed, names no TypeScript member in its prose', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'API.python.md'), 'utf8');
  const spans = [...page.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  expect(spans.filter((code) => /^[A-Za-z_][\w.]*(\([\w., ]*\))?$/.test(code) && /\b[a-z][a-z0-9]*[A-Z]/.test(code))).toEqual([]);
  expect(spans.filter((code) => code.startsWith('new '))).toEqual([]);
});
