import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEnvironmentMatrix } from '../helpers/environment-matrix';

/**
 * The package's command (bin/), as `npx cdktf-server-hosting` runs it, in every environment of the
 * matrix (issue 60 §3). Run from a copy of the package's command files in a folder every user may
 * read, as an installed package is: the clone may sit in a folder only its owner reaches (mktemp -d),
 * where a user with no passwd entry could not start it at all.
 */
const ROOT = join(__dirname, '..', '..');
const installed = mkdtempSync(join(tmpdir(), 'installed-command-'));
beforeAll(() => {
  for (const file of ['bin/cdktf-server-hosting', 'assets/standalone/cli.js']) cpSync(join(ROOT, file), join(installed, file));
  for (const dir of ['', 'bin', 'assets', 'assets/standalone']) chmodSync(join(installed, dir), 0o755);
});
afterAll(() => rmSync(installed, { recursive: true, force: true }));

describeEnvironmentMatrix({ name: 'the Node command', argv: () => [process.execPath, join(installed, 'bin', 'cdktf-server-hosting')] });
