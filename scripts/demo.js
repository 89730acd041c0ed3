// The README's first command (npm run demo): builds what it needs, starts the simulator on
// 127.0.0.1, synthesizes examples/typescript, and drives the real terraform through apply, a no-op
// apply, drift spotted by `handler plan`, its repair, and destroy. Exits 0 when all went as shown.
const { spawnSync, spawn } = require('node:child_process');
const { mkdtempSync, rmSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const say = (text = '') => process.stdout.write(`${text}\n`);
const step = (n, text) => say(`\n\x1b[1m== ${n}. ${text}\x1b[0m`);
const fail = (text) => {
  process.stderr.write(`\ndemo failed: ${text}\n`);
  process.exit(1);
};

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...options });
  if (res.error) fail(`${cmd} could not be started: ${res.error.message}`);
  return res;
}

/** Like run(), but without blocking: the simulator answers from this same process. */
function runAsync(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs terraform and shows the lines a person follows: the handler's decisions and the summary. */
function terraform(cwd, env, args) {
  return new Promise((resolve) => {
    const child = spawn('terraform', args, { cwd, env });
    let output = '';
    const show = (chunk) => {
      output += chunk;
      for (const line of String(chunk).split('\n')) {
        const handler = /^(\S+) \(local-exec\): (?!Executing:)(.*)$/.exec(line);
        if (handler) say(`   ${handler[2]}`);
        else if (/^(Apply complete|No changes|Destroy complete|Plan:|Error|│ Error)/.test(line)) say(`   ${line}`);
        else if (/must be replaced|will be created/.test(line)) say(`   ${line.trim()}`);
      }
    };
    child.stdout.on('data', show);
    child.stderr.on('data', show);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function main() {
  if (run('terraform', ['version'], { env: { ...process.env, CHECKPOINT_DISABLE: '1' } }).status !== 0) {
    fail('terraform is not on PATH; install Terraform 1.4 or newer');
  }

  step(1, 'Building the handler bundle and the library (npx projen compile)');
  const build = run('npx', ['projen', 'compile'], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (build.status !== 0) fail(`the build failed:\n${build.stderr}`);
  say('   done');

  step(2, 'Starting the Hosting API simulator on 127.0.0.1');
  const { startSimulator } = require('../lib/simulator');
  const sim = await startSimulator({ operationDelays: { queuedMs: 300, runningMs: 900 } });
  say(`   base URL: ${sim.baseUrl}`);
  say('   token:    the seeded "full" token, passed only through HOSTING_API_TOKEN');

  const work = mkdtempSync(join(tmpdir(), 'cdktf-server-hosting-demo-'));
  try {
    const env = {
      ...process.env,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_CLI_CONFIG_FILE: join(root, 'test', 'e2e', 'terraform.rc'),
      HOSTING_API_URL: sim.baseUrl,
      HOSTING_API_TOKEN: sim.tokens.full,
    };

    step(3, 'Synthesizing examples/typescript/main.ts');
    const outdir = join(work, 'cdktf.out');
    // The example imports the package by name, as a user's stack would (the package's exports let
    // files inside it do that where they sit).
    const synth = run(join(root, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'main.ts'], {
      cwd: join(root, 'examples', 'typescript'),
      env: { ...env, CDKTF_OUTDIR: outdir },
    });
    if (synth.status !== 0) fail(`synth failed:\n${synth.stderr}`);
    const stackDir = join(outdir, 'stacks', 'web');
    say(`   ${stackDir}/cdk.tf.json (no token in it: the handler reads HOSTING_API_TOKEN at apply time)`);

    step(4, 'terraform init (terraform_data is built in: nothing is downloaded)');
    const init = await terraform(stackDir, env, ['init', '-input=false', '-no-color']);
    if (init.code !== 0) fail(`terraform init failed:\n${init.output}`);
    say('   initialized');

    step(5, 'terraform apply: each resource runs the handler, which reads, diffs and writes only what differs');
    if ((await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color'])).code !== 0) fail('terraform apply failed');

    step(6, 'What changed on the servers');
    const server = (id) => sim.state.server(id);
    say(`   vps_web_1 firewall: ${JSON.stringify(server('vps_web_1').firewall)}`);
    const ip = server('ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b').ipSettings.get('203.0.113.11');
    say(`   203.0.113.11: rdns ${ip.rdns}, description "${ip.description}", protection ${ip.protection.layer4}/${ip.protection.layer7}`);
    say(`   vps_web_2 power: ${server('vps_web_2').server.power}`);
    say(`   writes the simulator executed: ${sim.executed().map((w) => `${w.serverId} ${w.kind}`).join('; ')}`);

    step(7, 'terraform apply again: nothing to do, no request made');
    const before = sim.requests.length;
    const again = await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    if (again.code !== 0 || !again.output.includes('No changes.')) fail('the second apply was not a no-op');
    say(`   requests to the API: ${sim.requests.length - before}`);

    step(8, 'Someone disables the firewall in the control panel; `handler plan` spots the drift');
    sim.drift('vps_web_1', { firewall: { enabled: false } });
    const state = JSON.parse(run('terraform', ['show', '-json'], { cwd: stackDir, env }).stdout);
    const firewall = state.values.root_module.resources.find((r) => r.address.startsWith('terraform_data.web-firewall_bridge'));
    const handler = join(stackDir, readdirSync(join(stackDir, 'assets')).map((d) => join('assets', d))[0]);
    const handlerFile = join(handler, readdirSync(handler)[0], 'index.js');
    const plan = await runAsync('node', [handlerFile, 'plan'], { env: { ...env, HOSTING_RESOURCE: firewall.values.input.document } });
    say(`   $ node ${handlerFile.replace(`${stackDir}/`, '')} plan   (exit ${plan.status}: 2 means out of sync)`);
    say(`   ${plan.stdout.trim()}`);
    if (plan.status !== 2) fail(`handler plan did not report the drift:\n${plan.stderr}`);

    step(9, `Repair it: terraform apply -replace=${firewall.address}`);
    if ((await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color', `-replace=${firewall.address}`])).code !== 0) fail('the repair failed');

    step(10, 'terraform destroy: the settings are retained on the servers (see README, "Destroy")');
    if ((await terraform(stackDir, env, ['destroy', '-auto-approve', '-input=false', '-no-color'])).code !== 0) fail('terraform destroy failed');
    say(`   vps_web_1 firewall after destroy: ${JSON.stringify(server('vps_web_1').firewall)}`);
  } finally {
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
  step(11, 'Simulator stopped. The demo went as shown.');
}

main().catch((err) => fail(err.stack ?? String(err)));
