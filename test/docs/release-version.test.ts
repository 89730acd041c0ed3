import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 75 §4: the docs name the release users install, the one being released in a release build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { docFiles, mentionsIn, stamp } = require('../../scripts/docs-version') as {
  docFiles: () => string[];
  mentionsIn: (text: string) => string[];
  stamp: (text: string, version: string) => string;
};

const ROOT = join(__dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const named = docFiles().flatMap((file) => mentionsIn(readFileSync(file, 'utf8')));

test('every mention of a release in README.md and docs/ names one release, the version constraints its MAJOR.MINOR', () => {
  const releases = [...new Set(named.filter((v) => v.split('.').length === 3))];
  expect(releases).toHaveLength(1);
  const minor = releases[0].split('.').slice(0, 2).join('.');
  expect([...new Set(named.filter((v) => v.split('.').length === 2))]).toEqual([minor]);
  // A release build (npx projen release) stamps the docs with the version it bumped to before it builds.
  if (version !== '0.0.0') expect(releases).toEqual([version]);
});

test('the stamp names the new release everywhere a doc names one, and nothing else', () => {
  const text = [
    'version = "~> 1.4"', 'curl -fsSLO ".../releases/download/v1.4.2/terraform-provider-hosting_1.4.2_linux_amd64.zip"',
    './terraform-provider-hosting_v1.4.2 provider mirror', 'npm install cdktf-server-hosting@1.4.2', 'hosting/1.4.2/download',
    'Installed registry.example.com/platform/hosting v1.4.2', 'installs 1.4.2', 'cdktf@^0.21 constructs@^10.4 Node 22.23.2',
  ].join('\n');
  const stamped = stamp(text, '2.11.0');
  expect(mentionsIn(stamped)).toEqual(expect.arrayContaining(['2.11', '2.11.0']));
  expect(mentionsIn(stamped).filter((v) => !v.startsWith('2.11'))).toEqual([]);
  expect(stamped).not.toContain('1.4');
  expect(stamped).toContain('cdktf@^0.21 constructs@^10.4 Node 22.23.2');
});
