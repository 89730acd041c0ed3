// The third-party notices of what the package ships: every npm package esbuild put into the program
// bundles (assets/handler, assets/provider, assets/standalone), with its version from the lock file,
// its licence, copyright lines and licence text (the provider release's zips add Node's licence:
// standaloneNotices in src/contract/provider-mirror.ts). A bundled package with no licence file, or
// a licence outside ALLOWED_LICENCES, fails the build.
// Usage: node scripts/third-party-notices.js <out file>
const { mkdirSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');
const { bundledPackages } = require('./bundled-packages');

const BUNDLES = ['handler', 'provider', 'standalone', 'standalone-cli'];

/**
 * The licences a bundled package may have (SPDX ids). Permissive ones, MPL-2.0 (file-level copyleft:
 * its files are unmodified and their source is the npm package), and LGPL-3.0-or-later for openpgp,
 * which users may replace (the notices say how). A new licence is a decision, not an accident.
 */
const ALLOWED_LICENCES = ['MIT', 'ISC', '0BSD', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', 'MPL-2.0', 'LGPL-3.0-or-later'];
/** How some manifests spell an SPDX id. */
const SPDX_SPELLINGS = { 'LGPL-3.0+': 'LGPL-3.0-or-later' };

const licenceFile = (dir) => readdirSync(dir).filter((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name)).sort()[0];
/** The licence text's own copyright lines (not those of the licence's body, its template or its publisher). */
const copyrightLines = (text) => text.split('\n').map((line) => line.trim())
  .filter((line) => /^(?:copyright\b(?:\s*(?:\(c\)|©))?\s+\S|(?:\(c\)|©)\s*\d{4})/i.test(line))
  .filter((line) => !/\[|free software foundation|waived|copyright (notice|holder|owner|license|and)/i.test(line));

/** Each package's notice (`packages` as bundledPackages gives them), or the problems that stop the build. */
function packageNotices(packages) {
  const notices = [];
  const problems = [];
  for (const { name, version, dir, manifest, locked } of packages) {
    const declared = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
    const licence = SPDX_SPELLINGS[declared] ?? declared;
    const file = licenceFile(dir);
    if (!locked || locked.version !== version) problems.push(`${name}@${version} is bundled but not the version package-lock.json pins (${locked?.version ?? 'none'})`);
    if (!licence) problems.push(`${name}@${version} declares no licence`);
    else if (!ALLOWED_LICENCES.includes(licence)) problems.push(`${name}@${version} is under ${licence}, which is not among the allowed licences (${ALLOWED_LICENCES.join(', ')})`);
    if (!file) problems.push(`${name}@${version} has no licence file (LICENSE, LICENCE or COPYING) to ship`);
    if (!file || !licence) continue;
    const text = readFileSync(join(dir, file), 'utf8').trim();
    const copyright = copyrightLines(text);
    notices.push({ name, version, licence, copyright: copyright.length ? copyright : [`the ${name} authors (${manifest.author?.name ?? manifest.author ?? manifest.homepage ?? 'see its source'})`], text, source: `https://www.npmjs.com/package/${name}/v/${version}` });
  }
  return { notices, problems };
}

const RULE = '='.repeat(78);

/**
 * The licence texts a notice's licence builds on, shipped with it: the LGPL-3.0 incorporates the
 * terms of the GPL-3.0 and is not complete without its text (licenses/, from the FSF).
 */
const BUILT_ON = {
  'LGPL-3.0-or-later': { title: 'GNU General Public License, version 3 (the LGPL-3.0 above incorporates its terms)', file: join(__dirname, '..', 'licenses', 'GPL-3.0.txt') },
};

function render(self, notices) {
  const header = [
    `Third-party software in ${self.name} ${self.version}`,
    '',
    `${self.name} is licensed under ${self.license} (LICENSE). Its program bundles (assets/handler,`,
    'assets/provider, assets/standalone, and the standalone provider executables) contain the npm',
    'packages below, each under its own licence, whose text follows its entry.',
    '',
    'openpgp (LGPL-3.0-or-later) is used only to sign provider releases (assets/standalone/cli.js).',
    'You may replace it: in a clone of this repository at the release\'s tag, install the openpgp',
    'you want ("npm install --save-dev openpgp@VERSION"), run "npx projen compile", and use the',
    'assets/standalone/cli.js it writes (or "npx projen build" for the whole package). The',
    'library\'s source is at the package\'s repository; openpgp\'s at',
    'https://github.com/openpgpjs/openpgpjs.',
    '',
    `Packages: ${notices.map((n) => `${n.name}@${n.version} (${n.licence})`).join(', ')}.`,
    'The standalone provider executables also embed Node.js, whose licence ends their copy of this file.',
  ];
  const entries = notices.map((n) => [RULE, `${n.name} ${n.version}`, `Licence: ${n.licence}`, ...n.copyright.map((line) => `Copyright: ${line.replace(/^copyright:?\s*/i, '')}`), `Source: ${n.source}`, '', n.text].join('\n'));
  const builtOn = [...new Set(notices.map((n) => n.licence))].filter((licence) => BUILT_ON[licence])
    .map((licence) => [RULE, BUILT_ON[licence].title, '', readFileSync(BUILT_ON[licence].file, 'utf8').replace(/^\n+/, '').trimEnd()].join('\n'));
  return `${[header.join('\n'), ...entries, ...builtOn].join('\n\n')}\n`;
}

/** The notices of `packages` as text; throws, naming every problem, when one cannot be shipped. */
function noticesOf(packages) {
  const self = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  const { notices, problems } = packageNotices(packages);
  if (problems.length) throw new Error(`the bundles cannot ship with their licences:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return render(self, notices);
}

/** The notices of the program bundles. */
const thirdPartyNotices = async () => noticesOf(await bundledPackages(BUNDLES));

module.exports = { ALLOWED_LICENCES, BUNDLES, noticesOf, thirdPartyNotices };

if (require.main === module) {
  const [out] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/third-party-notices.js <out file>');
    process.exit(64);
  }
  thirdPartyNotices().then((text) => {
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, text);
    console.log(`third-party notices: ${out} (${text.length} characters)`);
  }, (err) => {
    console.error(`third-party-notices: ${err.message}`);
    process.exit(1);
  });
}
