import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standaloneNotices } from '../../src/contract/provider-mirror';

/*
 * Issue 41, point 3: the licences of what the bundles carry travel with every package. The notices
 * are generated from the bundles' metafiles and the lock file; a package the allowlist does not
 * name, or one with no licence file, fails the build.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundledPackages } = require('../../scripts/bundled-packages');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ALLOWED_LICENCES, BUNDLES, noticesOf, thirdPartyNotices } = require('../../scripts/third-party-notices');

const ROOT = join(__dirname, '..', '..');

interface Bundled { name: string; version: string; manifest: { license?: string } }

test('every package in the bundles is listed with its lock-file version, licence, copyright and licence text; openpgp says how to replace it', async () => {
  const packages: Bundled[] = await bundledPackages(BUNDLES);
  const text: string = await thirdPartyNotices();
  expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(['undici', 'zod', 'openpgp', 'macho-unsign', 'protobufjs']));
  for (const { name, version } of packages) {
    const entry = text.split(`${'='.repeat(78)}\n`).find((part) => part.startsWith(`${name} ${version}\n`));
    expect([name, entry !== undefined]).toEqual([name, true]);
    expect(entry).toMatch(/\nLicence: [\w.-]+\n(Copyright: .+\n)+Source: https:\/\/www\.npmjs\.com\/package\/.+\n\n\S/);
  }
  expect(text).toContain('openpgp@6.3.2 (LGPL-3.0-or-later)');
  expect(text).toContain('macho-unsign@2.0.6 (MPL-2.0)');
  expect(text).toContain('GNU LESSER GENERAL PUBLIC LICENSE');
  // The LGPL builds on the GPL: its text travels with it.
  expect(text).toContain(`${'='.repeat(78)}\nGNU General Public License, version 3 (the LGPL-3.0 above incorporates its terms)\n\n                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007`);
  expect(text).toMatch(/You may replace it: in a clone of this repository at the release's tag, install the openpgp\nyou want/);
});

test('a standalone executable\'s copy adds Node\'s licence after the bundles\' (the release zips, whose executables embed Node)', async () => {
  writeFileSync(join(ROOT, 'assets', 'THIRD_PARTY_NOTICES.txt'), await thirdPartyNotices());
  const text = standaloneNotices('22.23.2', 'Node.js is licensed for use as follows:\n…').toString('utf8');
  expect(text).toMatch(/^Third-party software in cdktf-server-hosting /);
  expect(text).toContain('\nNode.js 22.23.2\nThe runtime inside each standalone provider executable (MIT).');
  expect(text.trimEnd().endsWith('Node.js is licensed for use as follows:\n…')).toBe(true);
});

describe('a bundled package that cannot ship fails the build, naming it and why', () => {
  let root: string;
  const fake = (name: string, license: string | undefined, licenceFile?: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    if (licenceFile) writeFileSync(join(dir, licenceFile), 'Copyright (c) 2026 Someone\n\nPermission is granted…\n');
    return { name, version: '1.0.0', dir, manifest: { name, version: '1.0.0', license }, locked: { version: '1.0.0' } };
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'notices-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a licence outside the allowlist, none declared, no licence file, or a version the lock file does not pin', () => {
    const stale = { ...fake('stale', 'MIT', 'LICENSE'), locked: { version: '0.9.0' } };
    expect(() => noticesOf([fake('copyleft', 'GPL-3.0-only', 'LICENSE'), fake('silent', undefined, 'LICENSE'), fake('bare', 'MIT'), stale])).toThrow([
      'the bundles cannot ship with their licences:',
      `  - copyleft@1.0.0 is under GPL-3.0-only, which is not among the allowed licences (${ALLOWED_LICENCES.join(', ')})`,
      '  - silent@1.0.0 declares no licence',
      '  - bare@1.0.0 has no licence file (LICENSE, LICENCE or COPYING) to ship',
      '  - stale@1.0.0 is bundled but not the version package-lock.json pins (0.9.0)',
    ].join('\n'));
  });

  test('an allowed one ships, its copyright line taken from its licence text', () => {
    expect(noticesOf([fake('fine', 'ISC', 'LICENSE.md')])).toContain('fine 1.0.0\nLicence: ISC\nCopyright: (c) 2026 Someone\nSource: https://www.npmjs.com/package/fine/v/1.0.0\n');
  });
});
