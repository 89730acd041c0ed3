// API.python.md in a Python user's words: jsii-docgen names every parameter and property the Python
// way, but the prose of the doc comments is written once, in TypeScript's words. After
// `jsii-docgen -l python`, this rewrites the code spans of that prose: camelCase names as
// snake_case (`preventDestroy` → `prevent_destroy`), and the TypeScript expressions the comments
// show as the Python a user writes. Class names (PascalCase) are the same in both.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** Whole TypeScript expressions of the doc comments, and their Python. */
const EXPRESSIONS = new Map([
  [
    "new ServerFirewall(this, 'fw', { api, serverId: new DataHostingServer(this, 'web', { api, name: 'web-1' }).serverId, … })",
    'ServerFirewall(self, "fw", api=api, server_id=DataHostingServer(self, "web", api=api, name="web-1").server_id, …)',
  ],
]);

const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One code span's text, as Python writes it. */
function pythonSpan(code) {
  if (EXPRESSIONS.has(code)) return EXPRESSIONS.get(code);
  // A member or call chain of names (`TerraformIterator.fromList(servers.ids)`, `importExisting()`).
  if (!/^[A-Za-z_][\w.]*(\([\w., ]*\))?$/.test(code)) return code;
  return code.replace(/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g, snake);
}

/** The page with every code span outside HTML rewritten; HTML (`<code>`, anchors) is jsii-docgen's own and Python already. */
function inPythonWords(markdown) {
  return markdown.split('\n').map((line) => line.replace(/`([^`]+)`/g, (span, code) => `\`${pythonSpan(code)}\``)).join('\n');
}

module.exports = { inPythonWords, pythonSpan };

if (require.main === module) {
  const file = join(__dirname, '..', 'API.python.md');
  const before = readFileSync(file, 'utf8');
  const unknown = [...before.matchAll(/`(new [^`]+)`/g)].map((m) => m[1]).filter((code) => !EXPRESSIONS.has(code));
  if (unknown.length) throw new Error(`API.python.md shows TypeScript this script has no Python for; add it to EXPRESSIONS: ${unknown.join('; ')}`);
  writeFileSync(file, inPythonWords(before));
}
