import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The live page's files (index.html, live-page.css, live-page.js, favicon.svg) are real files in
 * the package's live-page/ folder, two levels above this module both in src/ and in lib/. The
 * standalone executable's bundle has no package beside it: scripts/bundle.js swaps this module for
 * one that carries the same files inline.
 */

const LIVE_PAGE_DIR = join(__dirname, '..', '..', 'live-page');

/** One of the live page's files, as text. */
export function readLivePageFile(name: string): string {
  return readFileSync(join(LIVE_PAGE_DIR, name), 'utf8');
}
