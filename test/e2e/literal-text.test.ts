import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TerraformStack, Testing, TerraformVariable } from 'cdktf';
import { Bridge, HostingApi, IpSettings, PowerState, PowerStateValue } from '../../src';
import { TERRAFORM_RC, describeWithTerraform } from '../helpers/terraform';
import { useTestingApps } from '../helpers/testing-apps';

const DED = 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';
const TEXT = 'costs %{month} and ${file("/etc/hostname")} $${kept} "quoted" \\ back`tick`\n\tnext line %{ if true }x%{ endif }';
const BRIDGES = [Bridge.PROVIDER, Bridge.TERRAFORM_DATA, Bridge.NULL_RESOURCE];

const testingApp = useTestingApps();

/** The synthesized values Terraform evaluates: the provider's attribute, or the bridge's document and reboot triggers. */
function synthesized(bridge: Bridge, description: string, withToken = false) {
  const stack = new TerraformStack(testingApp(), 'literal');
  const api = new HostingApi(stack, 'hosting', { bridge });
  const suffix = withToken ? new TerraformVariable(stack, 'suffix', { default: '!' }).stringValue : '';
  new IpSettings(stack, 'ip', { api, serverId: DED, ip: '203.0.113.10', description: `${description}${suffix}` });
  new PowerState(stack, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING, rebootTriggers: { image: description } });
  const json = JSON.parse(Testing.synth(stack));
  const one = (type: string, prefix: string) => Object.entries(json.resource[type]).find(([name]) => name.startsWith(prefix))![1] as any;
  if (bridge === Bridge.PROVIDER) return { description: one('hosting_ip_settings', 'ip').description as string, variable: json.variable };
  const resource = bridge === Bridge.NULL_RESOURCE ? 'null_resource' : 'terraform_data';
  const doc = bridge === Bridge.NULL_RESOURCE ? one(resource, 'ip').triggers.document : one(resource, 'ip').input.document;
  const reboot = one(resource, 'power_reboot_');
  const triggers = bridge === Bridge.NULL_RESOURCE ? reboot.triggers.reboot : reboot.triggers_replace.reboot;
  return { document: doc as string, triggers: triggers as string, variable: json.variable };
}

/** Terraform's own evaluation of JSON-syntax values, as outputs (no provider needed). */
function evaluate(values: Record<string, string>, variable?: unknown): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'literal-'));
  try {
    const config = { variable, output: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])) };
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(config));
    const env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: TERRAFORM_RC, TF_IN_AUTOMATION: '1' };
    const apply = spawnSync('terraform', ['apply', '-auto-approve', '-no-color', '-input=false'], { cwd: dir, env, encoding: 'utf8' });
    if (apply.status !== 0) throw new Error(`terraform apply failed:\n${apply.stdout}${apply.stderr}`);
    const out = JSON.parse(spawnSync('terraform', ['output', '-json'], { cwd: dir, env, encoding: 'utf8' }).stdout);
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, (v as { value: string }).value]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A plain string prop means its text on every bridge: Terraform evaluates the synthesized value to
 * exactly that text, with no template run and nothing read from disk; a cdktf token in the same
 * string still resolves; the bridges' reboot triggers carry text the same way.
 */
describeWithTerraform('plain strings are literal text on every bridge', () => {
  test.each(BRIDGES)('bridge %s: Terraform evaluates the description to the text itself, a token in it resolves', (bridge) => {
    for (const [description, expected, withToken] of [[TEXT, TEXT, false], [TEXT, `${TEXT}!`, true], ['plain web', 'plain web', false]] as const) {
      const values = synthesized(bridge, description, withToken);
      if ('description' in values) {
        expect(evaluate({ description: values.description as string }, values.variable).description).toBe(expected);
        continue;
      }
      const out = evaluate({ document: values.document, triggers: values.triggers }, values.variable);
      expect(JSON.parse(out.document).desired.description).toBe(expected);
      expect(out.triggers).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test('a string the earlier releases rendered right synthesizes as before, so upgrading replaces nothing', () => {
    const values = synthesized(Bridge.TERRAFORM_DATA, 'web ${x}\nline');
    expect(values.document).toContain('"description" = "web $${x}\\nline"');
    expect(values.document).not.toContain('base64decode');
  });
});
