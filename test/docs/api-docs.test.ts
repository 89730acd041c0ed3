import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Every construct and class of the API reference opens with what it is: a description lost (a doc
 * comment that ends up above something else, say) leaves a heading with nothing under it in
 * API.md, in API.python.md and on Construct Hub.
 */
const ROOT = join(__dirname, '..', '..');

test.each(['API.md', 'API.python.md'])('%s: every construct and class has a description', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const part = (from: string, to: string) => text.slice(text.indexOf(`\n## ${from} `), text.indexOf(`\n## ${to} `));
  const sections = [...part('Constructs', 'Structs').split(/\n### /).slice(1), ...part('Classes', 'Enums').split(/\n### /).slice(1)];
  expect(sections.length).toBeGreaterThan(10);
  const bare = sections.filter((section) => {
    const intro = section.split('\n#### ')[0].split('\n').slice(1);
    return !intro.some((line) => line.trim() !== '' && !line.startsWith('- *'));
  }).map((section) => section.split(' ')[0]);
  expect(bare).toEqual([]);
});
