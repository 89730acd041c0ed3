import { github, type cdk } from 'projen';

/*
 * The GitHub workflows: build (pull requests run the README's test command, then the package step),
 * release (main: `npx projen release`, then npm with provenance, PyPI by trusted publishing, and a
 * GitHub release with the signed provider files and the SBOM), from main only, the key reaching one
 * signing job in a protected environment. Only GitHub's own actions, each
 * pinned to the commit of a release; registries are reached by OIDC, so the one secret is the
 * release signing key. actionlint and zizmor check the files (test/release/workflows.test.ts).
 */

/** GitHub's actions at the commits of their releases (`git ls-remote --tags`), so a moved tag changes nothing. */
export const PINNED_ACTIONS: Record<string, string> = {
  'actions/checkout': '3d3c42e5aac5ba805825da76410c181273ba90b1', // v7.0.1
  'actions/setup-node': '820762786026740c76f36085b0efc47a31fe5020', // v7.0.0
  'actions/setup-python': '5fda3b95a4ea91299a34e894583c3862153e4b97', // v7.0.0
  'actions/upload-artifact': '043fb46d1a93c77aae656e7c1c64a875d1fc6a0a', // v7.0.1
  'actions/download-artifact': '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c', // v8.0.1
  'peter-evans/create-pull-request': '5f6978faf089d4d20b00c7766989d076bb2fc7f1', // v8.1.1, projen's upgrade workflow
};
const uses = (action: string) => `${action}@${PINNED_ACTIONS[action]}`;

const NODE = '24.x';
const TERRAFORM = '1.11.4';

const checkout = (fetchDepth = 1): github.workflows.JobStep => ({
  name: 'Checkout',
  uses: uses('actions/checkout'),
  with: { 'fetch-depth': fetchDepth, 'persist-credentials': false },
});
// No dependency cache: a release built from a cache another workflow wrote could be poisoned.
const nodeAndPython: github.workflows.JobStep[] = [
  { name: 'Setup Node.js', uses: uses('actions/setup-node'), with: { 'node-version': NODE, 'package-manager-cache': false } },
  { name: 'Setup Python', uses: uses('actions/setup-python'), with: { 'python-version': '3.12' } },
];
const installTerraform = (platform = 'linux_amd64'): github.workflows.JobStep => ({ name: 'Install Terraform', run: `scripts/ci/install-terraform.sh ${TERRAFORM} ${platform}` });
const toolchain: github.workflows.JobStep[] = [...nodeAndPython, installTerraform()];
const READ: github.workflows.JobPermissions = { contents: github.workflows.JobPermission.READ };

function buildWorkflow(gh: github.GitHub): void {
  const build = new github.GithubWorkflow(gh, 'build');
  build.on({ pullRequest: { types: ['opened', 'edited', 'synchronize', 'reopened'] }, workflowDispatch: {} });
  build.addJobs({
    title: {
      name: 'The title is a conventional commit (it becomes the squashed commit a release reads)',
      if: "github.event_name == 'pull_request'",
      runsOn: ['ubuntu-latest'],
      permissions: {},
      // Through the environment, never spliced into the script: a title is text, not code.
      env: { TITLE: '${{ github.event.pull_request.title }}' },
      steps: [{
        name: 'Check the title',
        run: [
          'if ! printf \'%s\' "$TITLE" | grep -Eq \'^(feat|fix|docs|style|refactor|perf|test|build|ci|chore|revert)(\\([a-z0-9-]+\\))?!?: .+\'; then',
          '  echo "::error::The title must be a conventional commit, e.g. \\"fix: retry on 503\\" or \\"feat(provider): ...\\"; fix: releases a patch, feat: a minor version"',
          '  exit 1',
          'fi',
        ].join('\n'),
      }],
    },
    test: {
      name: 'The README\'s test command',
      runsOn: ['ubuntu-latest'],
      permissions: READ,
      env: { CI: 'true', CHECKPOINT_DISABLE: '1' },
      steps: [checkout(), ...toolchain, { name: 'Test', run: 'npm ci && npm test' }],
    },
    // Windows itself, where the package step's Wine cannot reach: a synthesized stack whose
    // provider Terraform starts through the script package's launcher .exe, with the runner's Node.
    windows: {
      name: 'The provider\'s end-to-end core on Windows (the launcher and node.exe)',
      runsOn: ['windows-latest'],
      permissions: READ,
      env: { CI: 'true', CHECKPOINT_DISABLE: '1' },
      defaults: { run: { shell: 'bash' } },
      steps: [
        checkout(),
        ...nodeAndPython,
        installTerraform('windows_amd64'),
        { name: 'Build', run: 'npm ci && npx projen compile' },
        { name: 'Test', run: 'npx jest test/e2e/provider.test.ts --coverage=false' },
      ],
    },
    package: {
      name: 'The package step (wheels, standalone provider, release files, their suites)',
      runsOn: ['ubuntu-latest'],
      permissions: READ,
      env: { CI: 'true', CHECKPOINT_DISABLE: '1' },
      steps: [checkout(0), ...toolchain, { name: 'Build', run: 'npm ci && npx projen build' }],
    },
  });
}

/** Releases come from main alone: a dispatch on another branch signs and publishes nothing. */
const ON_MAIN = "github.ref == 'refs/heads/main'";

function releaseWorkflow(gh: github.GitHub): void {
  // Two quick pushes to main queue their releases: one at a time, none cancelled halfway.
  const release = new github.GithubWorkflow(gh, 'release', { limitConcurrency: true, concurrencyOptions: { group: 'release', cancelInProgress: false } });
  release.on({ push: { branches: ['main'] }, workflowDispatch: {} });
  const download = (name: string) => ({ name: `Download the ${name} release`, uses: uses('actions/download-artifact'), with: { name, path: 'dist' } });
  const published = `${ON_MAIN} && needs.release.outputs.version != ''`;
  release.addJobs({
    release: {
      name: 'Release: bump, build, test, unbump (no secrets)',
      if: ON_MAIN,
      runsOn: ['ubuntu-latest'],
      permissions: READ,
      env: { CI: 'true', CHECKPOINT_DISABLE: '1' },
      outputs: { version: { stepId: 'version', outputName: 'version' } },
      steps: [
        checkout(0),
        ...toolchain,
        { name: 'Install dependencies', run: 'npm ci' },
        { name: 'Check the Node binaries against Node\'s signed SHASUMS256.txt', run: 'scripts/ci/verify-node-binaries.sh' },
        // Builds and tests every package and the provider release files, unsigned: no step of this
        // job (npm, pip, apt, the test suites) ever sees the signing key.
        { name: 'Release', run: 'npx projen release' },
        // A version already tagged (nothing releasable since, or a re-run) publishes nothing.
        {
          id: 'version',
          name: 'Version, unless already released',
          run: 'if ! git ls-remote --exit-code --tags origin "refs/tags/$(cat dist/releasetag.txt)"; then echo "version=$(cat dist/version.txt)" >> "$GITHUB_OUTPUT"; fi',
        },
        { name: 'Upload the unsigned release', if: "steps.version.outputs.version != ''", uses: uses('actions/upload-artifact'), with: { 'name': 'unsigned', 'path': 'dist', 'if-no-files-found': 'error' } },
      ],
    },
    sign: {
      name: 'Sign the provider release (the only job that sees the key)',
      needs: ['release'],
      if: published,
      runsOn: ['ubuntu-latest'],
      // A protected environment: its secrets reach only jobs on the branches it allows, after its reviewers approve.
      environment: 'release-signing',
      permissions: READ,
      steps: [
        checkout(),
        download('unsigned'),
        {
          name: 'Sign SHA256SUMS',
          run: 'scripts/ci/sign-provider-release.sh dist/provider',
          env: { HOSTING_RELEASE_SIGNING_KEY: '${{ secrets.HOSTING_RELEASE_SIGNING_KEY }}', HOSTING_RELEASE_SIGNING_PASSPHRASE: '${{ secrets.HOSTING_RELEASE_SIGNING_PASSPHRASE }}' },
        },
        { name: 'Upload the signed release', uses: uses('actions/upload-artifact'), with: { 'name': 'release', 'path': 'dist', 'if-no-files-found': 'error' } },
      ],
    },
    npm: {
      name: 'Publish both npm packages, with provenance',
      needs: ['release', 'sign'],
      if: published,
      runsOn: ['ubuntu-latest'],
      permissions: { contents: github.workflows.JobPermission.READ, idToken: github.workflows.JobPermission.WRITE },
      steps: [
        { name: 'Setup Node.js', uses: uses('actions/setup-node'), with: { 'node-version': NODE, 'registry-url': 'https://registry.npmjs.org', 'package-manager-cache': false } },
        download('release'),
        // npm 11.5+ exchanges the workflow's OIDC token with the registry (trusted publishing): no npm token.
        { name: 'Publish', run: 'for tarball in dist/js/*.tgz; do npm publish "$tarball" --provenance --access public; done' },
      ],
    },
    pypi: {
      name: 'Publish both wheels to PyPI (trusted publishing)',
      needs: ['release', 'sign'],
      if: published,
      runsOn: ['ubuntu-latest'],
      environment: 'pypi',
      permissions: { contents: github.workflows.JobPermission.READ, idToken: github.workflows.JobPermission.WRITE },
      steps: [
        { name: 'Setup Python', uses: uses('actions/setup-python'), with: { 'python-version': '3.12' } },
        download('release'),
        { name: 'Publish', run: 'scripts/ci/pypi-trusted-publish.sh dist/python/*.whl' },
      ],
    },
    github: {
      name: 'GitHub release: the signed provider files and the SBOM',
      needs: ['release', 'sign', 'npm', 'pypi'],
      if: published,
      runsOn: ['ubuntu-latest'],
      permissions: { contents: github.workflows.JobPermission.WRITE },
      steps: [
        download('release'),
        {
          name: 'Create the release',
          env: { GH_TOKEN: '${{ github.token }}', VERSION: '${{ needs.release.outputs.version }}' },
          // The notes end with the key that signed SHA256SUMS (its fingerprint and public key), from the signing job.
          run: 'cat dist/changelog.md dist/release-key.md > dist/release-notes.md\n'
            + 'gh release create "v$VERSION" --repo "$GITHUB_REPOSITORY" --target "$GITHUB_SHA" --title "v$VERSION" --notes-file dist/release-notes.md dist/provider/*',
        },
      ],
    },
  });
}

/** The workflows, and projen's own (upgrade, pull-request lint) held to the same pins. */
export function addWorkflows(project: cdk.JsiiProject): void {
  const gh = project.github!;
  for (const [action, sha] of Object.entries(PINNED_ACTIONS)) gh.actions.set(action, `${action}@${sha}`);
  // projen's upgrade workflow keeps the checkout's token on disk; neither job needs it (the pull
  // request is pushed with the action's own token input).
  const upgrade = project.tryFindObjectFile('.github/workflows/upgrade-main.yml');
  upgrade?.addOverride('jobs.upgrade.steps.0.with.persist-credentials', false);
  upgrade?.addOverride('jobs.pr.steps.0.with.persist-credentials', false);
  upgrade?.addOverride('jobs.upgrade.permissions', { contents: 'read' });
  buildWorkflow(gh);
  releaseWorkflow(gh);
}
