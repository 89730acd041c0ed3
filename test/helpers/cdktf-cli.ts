import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CDKTF_CLI_VERSION = '0.21.0';

/**
 * cdktf-cli from npm, installed once per clone; returns its command. The version is exact, so npm's
 * cache answers without asking the registry again (`--prefer-offline`).
 */
export function cdktfCli(): string {
  const dir = join(__dirname, '..', '..', 'node_modules', '.cache', `cdktf-cli-${CDKTF_CLI_VERSION}`);
  const cli = join(dir, 'node_modules', '.bin', 'cdktf');
  if (!existsSync(cli)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', `cdktf-cli@${CDKTF_CLI_VERSION}`], { encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm install cdktf-cli@${CDKTF_CLI_VERSION} failed:\n${install.stdout}${install.stderr}`);
  }
  return cli;
}
