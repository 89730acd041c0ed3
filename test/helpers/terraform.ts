import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { runMirrorCommand } from '../../src/cli/provider-command';
import { SEED_SERVER_IDS } from '../../src/simulator';

/** The project's own CLI configuration: no checkpoint, nothing from the network. */
export const TERRAFORM_RC = join(__dirname, '..', 'e2e', 'terraform.rc');
const STACK = 'e2e';

/** The registry address the docs' HCL names (examples/hcl/provider/provider.tf); tests mirror the provider under it. */
export const DOCS_REGISTRY_SOURCE = 'registry.example.com/platform/hosting';

export const terraformVersion = (() => {
  const res = spawnSync('terraform', ['version', '-json'], { encoding: 'utf8', env: { ...process.env, CHECKPOINT_DISABLE: '1' } });
  return res.status === 0 ? (JSON.parse(res.stdout).terraform_version as string) : undefined;
})();

/**
 * `describe` for suites that run the real engine. Without `terraform` on PATH they are skipped with a
 * visible message, except under CI=true, where a missing engine is a failure.
 */
export function describeWithTerraform(name: string, body: () => void): void {
  if (terraformVersion) {
    describe(`${name} (terraform ${terraformVersion})`, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      test('terraform is on PATH', () => {
        throw new Error('terraform was not found on PATH; the end-to-end suites need it under CI=true');
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`SKIPPED: "${name}" needs terraform on PATH; it was not found`);
  describe.skip(name, body);
}

/** The provider block for a simulator and one firewall: the HCL the provider-install suites apply first. */
export const firewallHcl = (baseUrl: string) => `provider "hosting" {
  base_url = "${baseUrl}"
}
resource "hosting_server_firewall" "web" {
  server_id = "${SEED_SERVER_IDS.vpsRunning}"
  enabled   = true
  rulesets  = [1]
}
`;

/** A folder with a link to the terraform found on PATH, and nothing else. */
export function pathWithTerraformOnly(root: string): string {
  const found = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'terraform')).find((file) => spawnSync(file, ['version']).status === 0);
  if (!found) throw new Error('terraform is not on PATH');
  const bin = join(root, 'terraform-only');
  mkdirSync(bin, { recursive: true });
  symlinkSync(realpathSync(found), join(bin, 'terraform'));
  return bin;
}

/** What Terraform says when an answer of the provider breaks its rules (plan vs configuration, final plan vs plan, new state vs plan). */
const TERRAFORM_RULE_BROKEN = /Provider produced (inconsistent|invalid) [a-z ]+|This is a bug in the provider|produced an unexpected new value/;

export interface TerraformRunOptions {
  readonly until?: (output: string) => boolean;
  readonly signal?: NodeJS.Signals;
  /** `signal` goes to terraform's whole process group (its providers too), as a cancelled CI job sends it; implies `ownGroup`. */
  readonly signalGroup?: boolean;
  readonly env?: Record<string, string>;
  /** Hears terraform's process id as it starts. */
  readonly onStart?: (pid: number) => void;
  /** Runs terraform as the leader of a process group of its own, which a test may then kill whole (`process.kill(-pid)`). */
  readonly ownGroup?: boolean;
  /** Answers terraform's approval prompt ("Enter a value:") with `yes`, once `meanwhile` (what happens while it waits) is done. */
  readonly approve?: { readonly meanwhile: () => Promise<void> | void };
}

export interface TerraformRun {
  readonly code: number;
  readonly output: string;
}

/** A temporary folder holding one synthesized stack and its local state, driven by the real engine. */
export class TerraformWorkspace {
  public readonly root = mkdtempSync(join(tmpdir(), 'cdktf-server-hosting-e2e-'));
  public readonly stackDir: string;

  /** `stack` names the stack a program other than `synth` writes into `root` (a Python one, say). */
  constructor(private readonly env: Record<string, string>, stack = STACK) {
    this.stackDir = join(this.root, 'stacks', stack);
  }

  /** Synthesizes (or re-synthesizes, keeping the state) the stack `define` builds. */
  public synth(define: (stack: TerraformStack) => void): void {
    const app = new App({ outdir: this.root });
    const stack = new TerraformStack(app, STACK);
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    define(stack);
    app.synth();
  }

  public init(): Promise<TerraformRun> {
    return this.terraform(['init', '-input=false', '-no-color']);
  }

  public apply(...args: string[]): Promise<TerraformRun> {
    return this.terraform(['apply', '-auto-approve', '-input=false', '-no-color', ...args]);
  }

  public plan(): Promise<TerraformRun> {
    return this.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode']);
  }

  public destroy(): Promise<TerraformRun> {
    return this.terraform(['destroy', '-auto-approve', '-input=false', '-no-color']);
  }

  /**
   * Runs terraform. With `until`, checked on every output and every 100 ms, stops it once true:
   * SIGINT as Ctrl-C does, or `signal` (SIGKILL for a killed run). `env` adds to the workspace's.
   */
  public terraform(args: string[], options: TerraformRunOptions = {}): Promise<TerraformRun> {
    return new Promise((resolve, reject) => {
      const child = spawn('terraform', args, {
        cwd: this.stackDir,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? this.root, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: TERRAFORM_RC, ...this.env, ...options.env },
        detached: (options.ownGroup || options.signalGroup) ?? false,
      });
      if (child.pid !== undefined) options.onStart?.(child.pid);
      let output = '';
      let interrupted = false;
      const check = () => {
        if (!interrupted && options.until?.(output)) {
          interrupted = true;
          if (options.signalGroup) process.kill(-child.pid!, options.signal ?? 'SIGINT');
          else child.kill(options.signal ?? 'SIGINT');
        }
      };
      const poll = options.until ? setInterval(check, 100) : undefined;
      let asked = false;
      const collect = (d: Buffer) => {
        output += d;
        check();
        if (options.approve && !asked && output.includes('Enter a value:')) {
          asked = true;
          void Promise.resolve(options.approve.meanwhile()).then(() => child.stdin.end('yes\n'));
        }
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.on('close', (code, signal) => {
        clearInterval(poll);
        // Terraform checks every answer of the provider: a rule it found broken fails the test, whatever the test expects.
        const broken = TERRAFORM_RULE_BROKEN.exec(output);
        if (broken) reject(new Error(`terraform ${args.join(' ')}: Terraform found an answer of the provider against its rules: ${broken[0]}\n${output}`));
        else resolve({ code: code ?? (signal ? 128 : -1), output });
      });
    });
  }

  /**
   * A docs' shell line (a pipeline into jq, say) run by bash in the stack's folder with the same
   * environment as `terraform`; stdout only. Not spawnSync: an in-process simulator answers from
   * this process's event loop.
   */
  public shell(script: string): Promise<{ code: number | null; stdout: string }> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-o', 'pipefail', '-c', script], {
        cwd: this.stackDir,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? this.root, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: TERRAFORM_RC, ...this.env },
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.on('close', (code) => resolve({ code, stdout }));
    });
  }

  /**
   * Plain HCL: writes the provider as a filesystem mirror (`provider mirror`), a CLI configuration
   * that installs from it, and `main.tf` with the printed `required_providers` block and `hcl`;
   * `mirrorOptions` go to `provider mirror` (e.g. `--source`).
   * `env` is the workspace's own, which gets the CLI configuration.
   */
  public writeHcl(env: Record<string, string>, hcl: string, mirrorOptions: string[] = []): string {
    let printed = '';
    runMirrorCommand([join(this.root, 'mirror'), ...mirrorOptions], (text) => (printed += text));
    const [cliBlock, configBlock] = printed.split('# In the configuration:');
    const rc = join(this.root, 'terraform.rc');
    writeFileSync(rc, `${readFileSync(TERRAFORM_RC, 'utf8')}\n${cliBlock.slice(cliBlock.indexOf('provider_installation'))}`);
    env.TF_CLI_CONFIG_FILE = rc;
    mkdirSync(this.stackDir, { recursive: true });
    writeFileSync(join(this.stackDir, 'main.tf'), `${configBlock}\n${hcl}`);
    return printed;
  }

  /**
   * Plain HCL against a simulator at `baseUrl` (plain http allowed there): the provider from a
   * mirror, `terraform init` done. Returns main.tf's path and its text so far, the header each
   * configuration a test writes begins with.
   */
  public async initHclFor(env: Record<string, string>, baseUrl: string): Promise<{ mainTf: string; header: string }> {
    this.writeHcl(env, `provider "hosting" {\n  base_url = "${baseUrl}"\n  allow_insecure_http = true\n}\n`);
    const mainTf = join(this.stackDir, 'main.tf');
    const header = readFileSync(mainTf, 'utf8');
    const init = await this.init();
    if (init.code !== 0) throw new Error(`terraform init failed:\n${init.output}`);
    return { mainTf, header };
  }

  /** Every file of the synth output and the state, as text, for secret scans. */
  public allText(): string {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = join(dir, name);
        if (name === '.terraform') return [];
        return statSync(full).isDirectory() ? walk(full) : [readFileSync(full, 'utf8')];
      });
    return walk(this.root).join('\n');
  }

  public dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
