import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMirrorCommand } from '../../src/cli/provider-command';
import { PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { packageHash1, readProviderBundle, scriptPackage } from '../../src/contract/provider-mirror';
import { zipArchive } from '../../src/contract/zip-archive';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { serveOverHttps } from '../helpers/https-mirror';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TERRAFORM_RC, TerraformWorkspace } from '../helpers/terraform';

/** A workspace with a CLI configuration of its own, `main.tf` requiring the hosting provider. */
function workspaceWith(sim: RunningSimulator, installation: string, env: Record<string, string> = {}) {
  const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN, ...env });
  const rc = join(ws.root, 'terraform.rc');
  writeFileSync(rc, `${readFileSync(TERRAFORM_RC, 'utf8')}\nprovider_installation {\n${installation}\n}\n`);
  mkdirSync(ws.stackDir, { recursive: true });
  writeFileSync(join(ws.stackDir, 'main.tf'), `terraform {
  required_providers {
    hosting = { source = "${PROVIDER_SOURCE}" }
  }
}
provider "hosting" {
  base_url = "${sim.baseUrl}"
}
data "hosting_server" "web" {
  id = "${IDS.vpsRunning}"
}
`);
  return Object.assign(ws, { rc });
}

const lockHashes = (ws: TerraformWorkspace) => readFileSync(join(ws.stackDir, '.terraform.lock.hcl'), 'utf8');
const wrapperOf = (version: string) => scriptPackage(readProviderBundle(), version).files.get('linux_amd64')![0].data;

/**
 * `provider mirror --packed` writes what `terraform providers mirror` writes: a zip per platform,
 * `index.json` and `<version>.json` with `zh:` hashes. Terraform installs from it as a filesystem
 * mirror, verifying the lock file's hashes, and, served over HTTPS, as a network mirror.
 */
describeWithTerraform('the provider as a platform team ships it: packed mirror archives', () => {
  let sim: RunningSimulator;
  let mirror: string;
  let zh: string;
  let h1: string;
  let linuxZip: string;
  let version: string;
  const workspaces: TerraformWorkspace[] = [];
  const dir = () => join(mirror, ...PROVIDER_SOURCE.split('/'));

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    const holder = new TerraformWorkspace({});
    workspaces.push(holder);
    mirror = join(holder.root, 'packed');
    let printed = '';
    runMirrorCommand([mirror, '--packed'], (text) => (printed += text));
    expect(printed).toContain('network_mirror');
    const versions = JSON.parse(readFileSync(join(dir(), 'index.json'), 'utf8')) as { versions: Record<string, object> };
    [version] = Object.keys(versions.versions);
    const archives = (JSON.parse(readFileSync(join(dir(), `${version}.json`), 'utf8')) as { archives: Record<string, { url: string; hashes: string[] }> }).archives;
    expect(Object.keys(archives).sort()).toEqual(['darwin_amd64', 'darwin_arm64', 'linux_amd64', 'linux_arm64', 'windows_amd64', 'windows_arm64']);
    linuxZip = archives.linux_amd64.url;
    const zip = readFileSync(join(dir(), linuxZip));
    zh = `zh:${createHash('sha256').update(zip).digest('hex')}`;
    expect(archives.linux_amd64.hashes).toEqual([zh]);
    h1 = packageHash1(scriptPackage(readProviderBundle(), version).files.get('linux_amd64')!);
  });
  afterAll(async () => {
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  test('a filesystem mirror of the packed layout installs, the lock file records the package\'s hash, and a tampered archive is refused', async () => {
    const ws = workspaceWith(sim, `  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["${PROVIDER_SOURCE.split('/')[0]}/*/*"]\n  }`);
    workspaces.push(ws);
    const env = { TF_CLI_CONFIG_FILE: ws.rc };
    const init = await ws.terraform(['init', '-input=false', '-no-color'], { env });
    expect(init.code).toBe(0);
    expect(lockHashes(ws)).toContain(h1);
    expect((await ws.terraform(['plan', '-input=false', '-no-color'], { env })).code).toBe(0);

    // Same lock file, an archive whose provider was changed: the hash no longer matches, and Terraform refuses it.
    const zips = join(dir(), linuxZip);
    const original = readFileSync(zips);
    try {
      writeFileSync(zips, zipArchive([
        { name: `terraform-provider-hosting_v${version}`, data: wrapperOf(version), mode: 0o755 },
        { name: 'provider.js', data: Buffer.from('process.exit(0) // not the provider the lock file names'), mode: 0o644 },
      ]));
      rmSync(join(ws.stackDir, '.terraform'), { recursive: true, force: true });
      const refused = await ws.terraform(['init', '-input=false', '-no-color'], { env });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/checksum|doesn't match any of the checksums|hash/i);
    } finally {
      writeFileSync(zips, original);
    }
  });

  test('served over HTTPS by a static server with a throw-away CA, it is a network mirror', async () => {
    const served = await serveOverHttps(mirror);
    try {
      const ws = workspaceWith(sim, `  network_mirror {\n    url = "${served.url}"\n  }`);
      workspaces.push(ws);
      const env = { TF_CLI_CONFIG_FILE: ws.rc, SSL_CERT_FILE: served.caFile };
      const init = await ws.terraform(['init', '-input=false', '-no-color'], { env });
      expect(init.output).toContain('Installing local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting');
      expect(init.code).toBe(0);
      expect(lockHashes(ws)).toContain(h1);
      expect((await ws.terraform(['plan', '-input=false', '-no-color'], { env })).code).toBe(0);
    } finally {
      await served.close();
    }
  });
});
