import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/*
 * Every link between the README and the guides leads somewhere: the file exists, and a `#anchor`
 * names a heading of that file (GitHub's slugs). Links to other sites are not fetched here.
 */

const ROOT = join(__dirname, '..', '..');
const markdownBelow = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? markdownBelow(full) : name.endsWith('.md') ? [full] : [];
  });
const FILES = [join(ROOT, 'README.md'), join(ROOT, 'SECURITY.md'), join(ROOT, 'RELEASING.md'), ...markdownBelow(join(ROOT, 'docs'))];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[^]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = slug(heading.replace(/<a [^>]*><\/a>/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The links of a file outside code: `[text](target)`, without those to other sites. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[^]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

test.each(FILES.map((file) => [relative(ROOT, file), file]))('every link of %s leads to a file and heading that exist', (_name, file) => {
  const broken = linksOf(file).filter((target) => {
    const [path, anchor] = target.split('#');
    const into = path ? join(dirname(file), decodeURIComponent(path)) : file;
    if (!existsSync(into)) return true;
    return anchor !== undefined && into.endsWith('.md') && !anchorsOf(into).has(anchor);
  });
  expect(broken).toEqual([]);
});
