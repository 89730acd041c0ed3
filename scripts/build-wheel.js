// Builds the Python wheel from the sources jsii-pacmak generated (package:python task) with whatever
// python3 is on PATH (or $PYTHON). `pip wheel --no-build-isolation` needs setuptools and wheel in
// the interpreter itself; when it lacks them, the build installs them into a throw-away venv and
// builds with that, so no system package is assumed. Fails unless the wheel is where it belongs.
// Reproducible: file times come from SOURCE_DATE_EPOCH, else the commit's time.
const { spawnSync } = require('node:child_process');
const { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { delimiter, join, resolve } = require('node:path');

/** An address on a domain kept for examples (RFC 2606): it names no real home or tracker. */
const PLACEHOLDER = /^https?:\/\/(?:[\w-]+\.)*(?:example\.(?:com|org|net)|invalid)(?:[/:]|$)/i;

const [sourceArg, wheelArg] = process.argv.slice(2);
if (!sourceArg || !wheelArg) {
  process.stderr.write('usage: node scripts/build-wheel.js <python source dir> <wheel dir>\n');
  process.exit(64);
}
// pip runs inside the source directory: a relative wheel directory would land there.
const [sourceDir, wheelDir] = [resolve(sourceArg), resolve(wheelArg)];

const candidates = [
  process.env.PYTHON,
  ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => ['python3', 'python'].map((name) => join(dir, name))),
].filter((file, i, all) => file && all.indexOf(file) === i && (file === process.env.PYTHON || existsSync(file)));

const probe = (python, code) => spawnSync(python, ['-c', code], { encoding: 'utf8' });
const lastLine = (res) => (res.stderr || res.error?.message || 'not usable').trim().split('\n').pop();

const tried = [];
const python = candidates.find((file) => {
  const res = probe(file, 'import sys; assert sys.version_info >= (3, 10), "Python 3.10 or newer is needed"');
  if (res.status !== 0) tried.push(`${file}: ${lastLine(res)}`);
  return res.status === 0;
});
if (!python) {
  process.stderr.write(
    'No Python 3.10+ interpreter was found, so the wheel cannot be built.\n' +
    `Tried:\n${tried.map((t) => `  ${t}`).join('\n') || '  (no python3 or python on PATH)'}\n` +
    'Install Python 3.10 or newer (e.g. "apt-get install python3 python3-venv"), or point PYTHON at one.\n',
  );
  process.exit(1);
}

let builder = python;
let scratch;
if (probe(python, 'import setuptools, wheel').status !== 0) {
  scratch = mkdtempSync(join(tmpdir(), 'build-wheel-venv-'));
  process.stdout.write(`${python} has no setuptools or wheel: installing them into a throw-away venv (${scratch})\n`);
  const venv = spawnSync(python, ['-m', 'venv', scratch], { stdio: 'inherit' });
  builder = join(scratch, 'bin', 'python');
  const tools = venv.status === 0 && spawnSync(builder, ['-m', 'pip', 'install', '--disable-pip-version-check', 'setuptools', 'wheel'], { stdio: 'inherit' });
  if (!tools || tools.status !== 0) {
    process.stderr.write(`Could not install setuptools and wheel into a venv of ${python} (is the venv module installed, and PyPI reachable?).\n`);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  }
}

// The wheel's file times are the commit's, not the build's: the same commit gives the same wheel.
const sourceDateEpoch = process.env.SOURCE_DATE_EPOCH
  || spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: __dirname, encoding: 'utf8' }).stdout?.trim()
  || '315532800';
// The third-party notices go into the wheel's metadata beside LICENSE (setuptools' license_files).
const notices = join(__dirname, '..', 'assets', 'THIRD_PARTY_NOTICES.txt');
if (!existsSync(notices)) {
  process.stderr.write(`${notices} is missing: run "npx projen compile" first, which writes it\n`);
  process.exit(1);
}
copyFileSync(notices, join(sourceDir, 'THIRD_PARTY_NOTICES.txt'));
writeConsoleScripts(sourceDir);
splitAuthor(join(sourceDir, 'setup.py'));
dropPlaceholders(join(sourceDir, 'setup.py'));
appendFileSync(join(sourceDir, 'setup.cfg'), '\n[metadata]\nlicense_files =\n    LICENSE\n    THIRD_PARTY_NOTICES.txt\n');
mkdirSync(wheelDir, { recursive: true });
const build = spawnSync(builder, ['-m', 'pip', 'wheel', '--disable-pip-version-check', '--no-deps', '--no-build-isolation', '--wheel-dir', wheelDir, '.'], {
  cwd: sourceDir,
  stdio: 'inherit',
  env: { ...process.env, SOURCE_DATE_EPOCH: sourceDateEpoch },
});
if (scratch) rmSync(scratch, { recursive: true, force: true });
const wheels = existsSync(wheelDir) ? readdirSync(wheelDir).filter((f) => f.endsWith('.whl')) : [];
if (build.status !== 0 || wheels.length === 0) {
  process.stderr.write(`The wheel was not built: pip exited ${build.status} and ${wheelDir} holds no .whl file.\n`);
  process.exit(1);
}
process.stdout.write(`Built ${wheels.map((w) => join(wheelDir, w)).join(', ')}\n`);

/**
 * jsii-pacmak writes the package.json author as one field, "NAME<EMAIL>", so `pip show` gives an
 * empty Author-email: the wheel's metadata gets the two fields apart.
 */
function splitAuthor(setupPy) {
  const generated = readFileSync(setupPy, 'utf8');
  const author = /"author": "([^"<]+?)\s*<([^">]+)>"/;
  if (!author.test(generated)) {
    process.stderr.write(`${setupPy} has no "author": "NAME<EMAIL>" field, the shape this build splits\n`);
    process.exit(1);
  }
  writeFileSync(setupPy, generated.replace(author, '"author": "$1", "author_email": "$2"'));
}

/**
 * The wheel's metadata names the repository's real home, or nothing: `pip show` printed the
 * placeholder of a repository not yet public (`Home-page: https://example.com/…`). jsii-pacmak
 * writes setup.py's arguments as one JSON document; those on a placeholder domain are left out.
 */
function dropPlaceholders(setupPy) {
  const generated = readFileSync(setupPy, 'utf8');
  const json = /json\.loads\(\s*"""\n([\s\S]*?)\n"""\s*\)/.exec(generated);
  if (!json) {
    process.stderr.write(`${setupPy} has no json.loads of its arguments between triple quotes, the shape this build edits\n`);
    process.exit(1);
  }
  const kwargs = JSON.parse(json[1]);
  if (PLACEHOLDER.test(kwargs.url ?? '')) delete kwargs.url;
  for (const [name, url] of Object.entries(kwargs.project_urls ?? {})) if (PLACEHOLDER.test(url)) delete kwargs.project_urls[name];
  if (kwargs.project_urls && Object.keys(kwargs.project_urls).length === 0) delete kwargs.project_urls;
  writeFileSync(setupPy, generated.replace(json[1], JSON.stringify(kwargs, null, 4)));
}

/**
 * Each console script jsii-pacmak generated (it boots the jsii kernel for a command that needs no
 * library) becomes scripts/python-console-script.py, which starts the command with Node directly.
 * A script not in the shape this build knows fails the build rather than ship jsii's.
 */
function writeConsoleScripts(dir) {
  const template = readFileSync(join(__dirname, 'python-console-script.py'), 'utf8');
  const src = join(dir, 'src');
  for (const module of readdirSync(src)) {
    const binDir = join(src, module, '_jsii', 'bin');
    if (!existsSync(binDir)) continue;
    for (const command of readdirSync(binDir)) {
      const generated = readFileSync(join(binDir, command), 'utf8');
      const load = /JSIIAssembly\.load\(\s*"[^"]+",\s*"[^"]+",\s*"([A-Za-z_][A-Za-z0-9_]*)",\s*"([^"\\/]+\.jsii\.tgz)",?\s*\)/.exec(generated);
      const invoke = new RegExp(`invokeBinScript\\(\\s*"[^"]+",\\s*"${command.replace(/[^A-Za-z0-9-]/g, '')}"`).exec(generated);
      if (!load || !invoke || load[1] !== module) {
        process.stderr.write(`${join(binDir, command)} is not the console script this build knows how to replace; see scripts/python-console-script.py\n`);
        process.exit(1);
      }
      writeFileSync(join(binDir, command), template.replace('@@MODULE@@', module).replace('@@TARBALL@@', load[2]).replace('@@COMMAND@@', command), { mode: 0o755 });
    }
  }
}
