import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CDKTF_CLI_VERSION = '0.21.0';

/** cdktf-cli from npm, installed once per machine (npm's cache makes later installs fast); returns its command. */
export function cdktfCli(): string {
  const dir = join(__dirname, '..', '..', 'node_modules', '.cache', `cdktf-cli-${CDKTF_CLI_VERSION}`);
  const cli = join(dir, 'node_modules', '.bin', 'cdktf');
  if (!existsSync(cli)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `cdktf-cli@${CDKTF_CLI_VERSION}`], { encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm install cdktf-cli@${CDKTF_CLI_VERSION} failed:\n${install.stdout}${install.stderr}`);
  }
  return cli;
}
