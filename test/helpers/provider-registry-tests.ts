import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { serveOverHttps, type HttpsMirror } from './https-mirror';
import { SENTINEL_TOKEN } from './mock-api';
import { packageAtVersion } from './package-at-version';
import { simulatorWithSentinel } from './simulator';
import { firewallHcl, TERRAFORM_RC, TerraformWorkspace } from './terraform';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';

/*
 * A provider registry in a folder (`provider registry`), served over HTTPS as any static host
 * would, installed by version constraint by terraform with a PATH holding terraform alone: what an
 * HCL team does with a release. Two package versions write into one folder; a changed archive and
 * a signature by another key are refused by terraform itself.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;
const NAMESPACE = 'platform';
const PASSPHRASE = 'correct horse battery staple';

async function signingKey(name: string): Promise<{ armored: string; keyId: string }> {
  const { privateKey } = await openpgp.generateKey({ type: 'rsa', rsaBits: 2048, userIDs: [{ name, email: 'releases@example.com' }], passphrase: PASSPHRASE, format: 'armored' });
  const key = await openpgp.readPrivateKey({ armoredKey: privateKey });
  return { armored: privateKey, keyId: key.getKeyID().toHex().toUpperCase() };
}

/** The suite's tests; `terraformOnly(root)` is a PATH under `root` that runs the Terraform under test and no Node. */
export function providerRegistryTests(terraformOnly: (root: string) => string): void {
  let sim: RunningSimulator;
  let served: HttpsMirror;
  let key: { armored: string; keyId: string };
  const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
  const registry = join(ws.root, 'registry');
  const keyFile = join(ws.root, 'release-key.asc');
  const releases = join(registry, 'releases', NAMESPACE, 'hosting');

  const writeRegistry = (version: string) => packageAtVersion(ws.root, version)(
    ['provider', 'registry', registry, '--host', served.host, '--namespace', NAMESPACE, '--signing-key', keyFile, '--platform', 'linux_amd64'],
    { HOSTING_RELEASE_SIGNING_PASSPHRASE: PASSPHRASE },
  );
  const terraform = (args: string[], where = ws) => where.terraform([...args, '-input=false', '-no-color'], {
    env: { PATH: terraformOnly(join(where.root, `path-${Math.random().toString(36).slice(2)}`)), TF_CLI_CONFIG_FILE: TERRAFORM_RC, SSL_CERT_FILE: served.caFile },
  });
  /** `terraform init` of the same configuration in a new folder: no lock file, nothing installed yet. */
  const freshInit = async () => {
    const fresh = new TerraformWorkspace({});
    try {
      mkdirSync(fresh.stackDir, { recursive: true });
      writeFileSync(join(fresh.stackDir, 'main.tf'), readFileSync(join(ws.stackDir, 'main.tf')));
      return await terraform(['init'], fresh);
    } finally {
      fresh.dispose();
    }
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    served = await serveOverHttps(registry);
    key = await signingKey('hosting releases');
    writeFileSync(keyFile, key.armored);
    const hcl = `
terraform {
  required_providers {
    hosting = {
      source  = "${served.host}/${NAMESPACE}/hosting"
      version = "~> 1.4"
    }
  }
}
${firewallHcl(sim.baseUrl)}`;
    mkdirSync(ws.stackDir, { recursive: true });
    writeFileSync(join(ws.stackDir, 'main.tf'), hcl);
  });
  afterAll(async () => {
    await served?.close();
    await sim?.close();
    ws.dispose();
  });

  test('the package writes its version, signed, and prints the required_providers block to use', () => {
    const written = writeRegistry('1.4.2');
    expect(written.output).toContain(`Wrote the hosting provider 1.4.2 (standalone executables with Node 22.23.2, no Node needed; linux_amd64) to the registry in ${registry}, signed with key ID ${key.keyId}`);
    expect(written.output).toMatch(new RegExp(`# Publish the key's fingerprint where your users look \\(terraform init prints the key ID, its last 16 digits\\): [0-9A-F]{24}${key.keyId}\\n`));
    expect(written.output).toContain(`source  = "${served.host}/${NAMESPACE}/hosting"`);
    expect(written.output).toContain('version = "~> 1.4"');
    expect(written.code).toBe(0);
    expect(JSON.parse(readFileSync(join(registry, '.well-known', 'terraform.json'), 'utf8'))).toEqual({ 'providers.v1': '/v1/providers/' });
  });

  test('terraform alone installs it by "~> 1.4" from the registry, reports the key, and applies', async () => {
    const init = await terraform(['init']);
    expect(init.output).toContain(`Installed ${served.host}/${NAMESPACE}/hosting v1.4.2 (self-signed, key ID ${key.keyId})`);
    expect(init.code).toBe(0);
    const apply = await terraform(['apply', '-auto-approve']);
    expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(apply.code).toBe(0);
    expect(sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' })).toHaveLength(1);
  });

  test('a second version written into the same folder keeps the first listed, and init -upgrade takes it', async () => {
    expect(writeRegistry('1.4.3').code).toBe(0);
    const versions = JSON.parse(readFileSync(join(registry, 'v1', 'providers', NAMESPACE, 'hosting', 'versions'), 'utf8')) as { versions: Array<{ version: string }> };
    expect(versions.versions.map((v) => v.version)).toEqual(['1.4.2', '1.4.3']);
    const upgrade = await terraform(['init', '-upgrade']);
    expect(upgrade.output).toContain(`Installed ${served.host}/${NAMESPACE}/hosting v1.4.3 (self-signed, key ID ${key.keyId})`);
    expect(upgrade.code).toBe(0);
    const plan = await terraform(['plan', '-detailed-exitcode']);
    expect(plan.output).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  test('an archive changed by one byte is refused by terraform init', async () => {
    const zip = join(releases, '1.4.3', 'terraform-provider-hosting_1.4.3_linux_amd64.zip');
    const original = readFileSync(zip);
    const changed = Buffer.from(original);
    const middle = Math.floor(changed.length / 2);
    changed[middle] = (changed[middle] + 1) % 256;
    writeFileSync(zip, changed);
    try {
      const init = await freshInit();
      expect(init.output).toContain('Failed to install provider');
      expect(init.output).toMatch(/checksum/i);
      expect(init.code).not.toBe(0);
    } finally {
      writeFileSync(zip, original);
    }
  });

  test('a SHA256SUMS signature made by another key is refused by terraform init', async () => {
    const other = await signingKey('someone else');
    const sums = join(releases, '1.4.3', 'terraform-provider-hosting_1.4.3_SHA256SUMS');
    const signature = `${sums}.sig`;
    const original = readFileSync(signature);
    const signingKeys = await openpgp.decryptKey({ privateKey: await openpgp.readPrivateKey({ armoredKey: other.armored }), passphrase: PASSPHRASE });
    const forged = await openpgp.sign({ message: await openpgp.createMessage({ binary: readFileSync(sums) }), signingKeys, detached: true, format: 'binary' });
    writeFileSync(signature, forged);
    try {
      const init = await freshInit();
      expect(init.output).toContain('Failed to install provider');
      expect(init.output).toMatch(/signature|authentication/i);
      expect(init.code).not.toBe(0);
    } finally {
      writeFileSync(signature, original);
    }
  });
}
