import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * README.md and docs/ pass markdownlint with the project's rules (.markdownlint-cli2.jsonc, from
 * .projenrc.ts): a heading glued to a list, a `+` that starts a bullet mid-sentence, a tag-like
 * `<server id>` GitHub would swallow.
 */

const ROOT = join(__dirname, '..', '..');
const markdownlint = (cwd: string, args: string[] = []) =>
  spawnSync(process.execPath, [join(ROOT, 'node_modules', 'markdownlint-cli2', 'markdownlint-cli2-bin.mjs'), ...args], { cwd, encoding: 'utf8' });

test('README.md and docs/ have no markdownlint findings', () => {
  const run = markdownlint(ROOT);
  expect({ status: run.status, findings: run.stderr.trim() }).toEqual({ status: 0, findings: '' });
  expect(run.stdout).toMatch(/Linting: [1-9]\d* file/);
});

test('a page with the mistakes it exists for fails it, naming each', () => {
  const dir = mkdtempSync(join(tmpdir(), 'markdownlint-'));
  try {
    writeFileSync(join(dir, 'page.md'), '# Page\n**Rules.**\n- one\n\nImport id: <server id>/<address>.\n');
    const run = markdownlint(dir, ['page.md']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/MD032\/blanks-around-lists/);
    expect(run.stderr).toMatch(/MD033\/no-inline-html/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
