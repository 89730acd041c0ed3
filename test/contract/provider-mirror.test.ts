import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProviderSource, PROVIDER_SOURCE } from '../../src/contract/provider-address';
import {
  lockFileWithProvider, packageHash1, readStandaloneMirror, scriptPackage, standalonePackage, writePackedProviderMirror, writeProviderMirror,
  type Platform,
} from '../../src/contract/provider-mirror';

test('a packed mirror written into a folder that holds other versions keeps them all listed in index.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'packed-'));
  try {
    writePackedProviderMirror(root, scriptPackage(Buffer.from('one'), '1.2.0'));
    writePackedProviderMirror(root, scriptPackage(Buffer.from('two'), '1.3.0'));
    writePackedProviderMirror(root, scriptPackage(Buffer.from('two'), '1.3.0'));
    const dir = join(root, ...PROVIDER_SOURCE.split('/'));
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'))).toEqual({ versions: { '1.2.0': {}, '1.3.0': {} } });
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual(['1.2.0.json', '1.3.0.json', 'index.json']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a team\'s own source address: HOST/NAMESPACE/hosting, normalized to lower case; anything else is refused, saying what is expected', () => {
  expect(parseProviderSource('registry.example.com/platform/hosting')).toBe('registry.example.com/platform/hosting');
  expect(parseProviderSource('Registry.Example.com:8443/Platform/hosting')).toBe('registry.example.com:8443/platform/hosting');
  // A host name of one label with a port is a registry host too, as Terraform takes it (a registry served on this machine).
  expect(parseProviderSource('localhost:8443/platform/hosting')).toBe('localhost:8443/platform/hosting');
  for (const wrong of ['platform/hosting', 'registry.example.com/platform/servers', 'registry.example.com/a/b/hosting', 'local_host/platform/hosting', 'registry.example.com:/platform/hosting', '']) {
    expect(() => parseProviderSource(wrong)).toThrow(/is not a provider address HOST\/NAMESPACE\/hosting/);
  }
});

describe('the standalone package: one executable per platform', () => {
  const executables = new Map([['linux_amd64', Buffer.from('linux exe')], ['darwin_arm64', Buffer.from('mac exe')]] as const);
  const pkg = standalonePackage('1.4.0', executables);

  test('its lock entry records each platform\'s own hash, sorted as terraform writes them', () => {
    const hashes = [...pkg.files.values()].map(packageHash1);
    expect(new Set(hashes).size).toBe(2);
    expect(lockFileWithProvider(undefined, pkg)).toContain(`  hashes = [\n${[...hashes].sort().map((h) => `    "${h}",\n`).join('')}  ]`);
  });

  test('on Windows its executable is named with .exe, as Terraform on Windows starts nothing else', () => {
    const windows = standalonePackage('1.4.0', new Map([['windows_amd64', Buffer.from('windows exe')]]));
    expect(windows.files.get('windows_amd64')).toEqual([{ name: 'terraform-provider-hosting_v1.4.0.exe', data: Buffer.from('windows exe'), mode: 0o755 }]);
  });

  test('a mirror written by --standalone reads back as the package; the script mirror, or another version, is refused with the command to run', () => {
    const root = mkdtempSync(join(tmpdir(), 'standalone-'));
    try {
      writeProviderMirror(join(root, 'standalone'), pkg);
      const read = readStandaloneMirror(join(root, 'standalone'), '1.4.0');
      expect([...read.files.keys()].sort()).toEqual(['darwin_arm64', 'linux_amd64']);
      expect(read.files.get('linux_amd64')).toEqual([{ name: 'terraform-provider-hosting_v1.4.0', data: Buffer.from('linux exe'), mode: 0o755 }]);
      expect(() => readStandaloneMirror(join(root, 'standalone'), '1.5.0')).toThrow(/holds no standalone provider 1\.5\.0 .*provider mirror --standalone <directory>" from this same package version/);
      writeProviderMirror(join(root, 'script'), scriptPackage(Buffer.from('bundle'), '1.4.0'));
      expect(() => readStandaloneMirror(join(root, 'script'), '1.4.0')).toThrow(/holds the script provider, which needs Node/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the script package: the bundle, run by the user\'s node', () => {
  const pkg = scriptPackage(Buffer.from('bundle'), '1.4.0');
  const names = (platform: Platform) => pkg.files.get(platform)!.map((file) => file.name);
  /** The machine a PE executable is built for (IMAGE_FILE_HEADER.Machine). */
  const peMachine = (exe: Buffer) => exe.readUInt16LE(exe.readUInt32LE(0x3c) + 4);

  test('Linux and macOS start it through a #!/bin/sh wrapper; Windows through the launcher .exe built for its machine', () => {
    // Every copy of the bundle carries its third-party notices.
    expect(names('linux_amd64')).toEqual(['terraform-provider-hosting_v1.4.0', 'provider.js', 'THIRD_PARTY_NOTICES.txt']);
    expect(pkg.files.get('darwin_arm64')![0].data.toString()).toMatch(/^#!\/bin\/sh\n/);
    expect(names('windows_amd64')).toEqual(['terraform-provider-hosting_v1.4.0.exe', 'provider.js', 'THIRD_PARTY_NOTICES.txt']);
    const [amd64, arm64] = (['windows_amd64', 'windows_arm64'] as const).map((platform) => pkg.files.get(platform)![0].data);
    expect([amd64, arm64].map((exe) => exe.subarray(0, 2).toString())).toEqual(['MZ', 'MZ']);
    expect([peMachine(amd64), peMachine(arm64)]).toEqual([0x8664, 0xaa64]);
    expect(pkg.files.get('windows_arm64')![1].data).toEqual(Buffer.from('bundle'));
  });

  // Issue 41, point 5: an empty or relative PATH entry means the working folder, Terraform's stack
  // folder, where a node planted there would run with the token in its environment.
  test('the wrapper runs the node of the first absolute PATH entry, never one in the working folder through an empty or relative entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wrapper-'));
    try {
      const wrapper = join(dir, 'package', 'terraform-provider-hosting_v1.4.0');
      mkdirSync(join(dir, 'package'));
      writeFileSync(wrapper, pkg.files.get('linux_amd64')![0].data, { mode: 0o755 });
      const fakeNode = (folder: string, says: string) => {
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'node'), `#!/bin/sh\necho "${says} $*"\n`, { mode: 0o755 });
      };
      fakeNode(join(dir, 'work'), 'planted');
      fakeNode(join(dir, 'work', 'bin'), 'planted in bin');
      fakeNode(join(dir, 'real'), 'real node');
      const run = (path: string) => spawnSync(wrapper, ['arg one'], { cwd: join(dir, 'work'), env: { PATH: path }, encoding: 'utf8' });
      for (const path of [`:${dir}/real`, `.:${dir}/real`, `bin::${dir}/real:`]) {
        expect([path, run(path).stdout]).toEqual([path, `real node ${dir}/package/provider.js arg one\n`]);
      }
      const none = run('.:bin:');
      expect(none.status).toBe(1);
      expect(none.stdout).toBe('');
      expect(none.stderr).toContain('node is not in any absolute folder on PATH (empty and relative entries are skipped)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('its lock entry has one hash for the platforms the wrapper serves and one per Windows launcher', () => {
    expect(lockFileWithProvider(undefined, pkg).match(/"h1:/g)).toHaveLength(3);
  });
});
