// Writes docs/ (the Terraform registry's layout) from the schema the provider serves, with the
// example of each type from examples/hcl (which the tests apply against the simulator). Part of
// `docgen`, after the jsii compile: the build rewrites the pages, and CI fails when one is stale.
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { providerDocs } = require('../lib/provider/docs');
const { documentedTypes } = require('../lib/provider/documented');

const root = join(__dirname, '..');
const docs = join(root, 'docs');
const example = (path) => {
  const file = join(root, 'examples', 'hcl', path);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

const pages = providerDocs({
  ...documentedTypes(),
  example,
  providerGuide: readFileSync(join(__dirname, 'provider-docs-guide.md'), 'utf8'),
});

// Generated folders hold only what this run writes: a removed type loses its page.
for (const folder of ['resources', 'data-sources', 'list-resources', 'actions']) rmSync(join(docs, folder), { recursive: true, force: true });
for (const page of pages) {
  const file = join(docs, page.path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page.text);
}
const count = (folder) => readdirSync(join(docs, folder)).length;
process.stdout.write(`provider docs: ${pages.length} pages in docs/ (${count('resources')} resources, ${count('data-sources')} data sources, ${count('list-resources')} list resources, ${count('actions')} actions)\n`);
