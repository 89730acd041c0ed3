// Writes docs/ (the Terraform registry's layout) from the schema the provider serves, with the
// example of each type from examples/hcl (which the tests apply against the simulator). Part of
// `docgen`, after the jsii compile: the build rewrites the pages, and CI fails when one is stale.
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { PROVIDER_SCHEMA } = require('../lib/provider/configure');
const { DATA_SOURCES } = require('../lib/provider/data-sources');
const { providerDocs } = require('../lib/provider/docs');
const { RESOURCES } = require('../lib/provider/resource-rpcs');

const root = join(__dirname, '..');
const docs = join(root, 'docs');
const example = (path) => {
  const file = join(root, 'examples', 'hcl', path);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

const pages = providerDocs({
  provider: PROVIDER_SCHEMA,
  resources: [...RESOURCES.values()],
  dataSources: [...DATA_SOURCES.values()],
  example,
  providerGuide: readFileSync(join(__dirname, 'provider-docs-guide.md'), 'utf8'),
});

// Generated folders hold only what this run writes: a removed type loses its page.
for (const folder of ['resources', 'data-sources']) rmSync(join(docs, folder), { recursive: true, force: true });
for (const page of pages) {
  const file = join(docs, page.path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page.text);
}
process.stdout.write(`provider docs: ${pages.length} pages in docs/ (${readdirSync(join(docs, 'resources')).length} resources, ${readdirSync(join(docs, 'data-sources')).length} data sources)\n`);
