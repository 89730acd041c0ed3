// Writes docs/testing/account-file.schema.json, the JSON Schema of the simulator's account file,
// from the schema the simulator parses it with. Part of `docgen`: CI fails when it is stale.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { accountFileJsonSchema } = require('../lib/simulator');

const file = join(__dirname, '..', 'docs', 'testing', 'account-file.schema.json');
mkdirSync(join(file, '..'), { recursive: true });
writeFileSync(file, `${JSON.stringify(accountFileJsonSchema(), null, 2)}\n`);
process.stdout.write(`account file schema: ${file}\n`);
