import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_SOURCE, PROVIDER_TYPE } from './provider-address';

/*
 * The provider package in Terraform's unpacked mirror layout,
 * `<root>/<hostname>/<namespace>/<type>/<version>/<os>_<arch>/`: the same for the stack's implied
 * local mirror (`terraform.d/plugins`) and for a filesystem mirror of plain HCL users.
 */

/** The provider bundle, found by file path (never imported): `<package>/assets/provider/provider.js`. */
export const PROVIDER_BUNDLE_PATH = join(__dirname, '..', '..', 'assets', 'provider', 'provider.js');

const PLATFORMS = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'];

/**
 * The version changes whenever the bundle does: Terraform's lock file records a hash of the
 * package, and a changed package under an unchanged version fails every later plan.
 * `1.0.<first 28 bits of the bundle's sha256>`.
 */
export function providerVersion(bundle: Buffer): string {
  return `1.0.${parseInt(createHash('sha256').update(bundle).digest('hex').slice(0, 7), 16)}`;
}

export function readProviderBundle(): Buffer {
  if (!existsSync(PROVIDER_BUNDLE_PATH)) {
    throw new Error(`The provider bundle is missing at ${PROVIDER_BUNDLE_PATH}; build it with "npx projen bundle:provider" (installed packages ship it)`);
  }
  return readFileSync(PROVIDER_BUNDLE_PATH);
}

/**
 * Writes the package for every platform below `root`. The whole package stays inside its folder:
 * the lock file's hash covers it, and a wrapper pointing elsewhere would leave the bundle unchecked.
 */
export function writeProviderMirror(root: string, bundle: Buffer, version = providerVersion(bundle)): void {
  for (const platform of PLATFORMS) {
    const dir = join(root, ...PROVIDER_SOURCE.split('/'), version, platform);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'provider.js'), bundle);
    const wrapper = join(dir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
    writeFileSync(wrapper, '#!/bin/sh\nexec node "$(dirname "$0")/provider.js" "$@"\n');
    chmodSync(wrapper, 0o755);
  }
}

/** What a plain HCL user pastes: the CLI configuration block, and the `required_providers` entry. */
export function mirrorInstructions(root: string, version: string): string {
  const host = PROVIDER_SOURCE.split('/')[0];
  return [
    '# In the Terraform CLI configuration (~/.terraformrc, or the file TF_CLI_CONFIG_FILE names):',
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(root)}`,
    `    include = ["${host}/*/*"]`,
    '  }',
    '  direct {',
    `    exclude = ["${host}/*/*"]`,
    '  }',
    '}',
    '',
    '# In the configuration:',
    'terraform {',
    '  required_providers {',
    `    ${PROVIDER_TYPE} = {`,
    `      source  = "${PROVIDER_SOURCE}"`,
    `      version = "${version}"`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
