// The README's first command (npm run demo): builds what it needs, starts the simulator on
// 127.0.0.1, synthesizes examples/typescript, and drives the real terraform through the package's
// provider: apply, a no-op apply, drift shown by `terraform plan`, its repair by a plain apply, and
// destroy. Exits 0 when all went as shown. The simulator's live page shows each step as it happens;
// `npm run demo -- --keep` leaves the simulator running afterwards, until Ctrl-C.
const { spawnSync, spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
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

/** Runs terraform and shows the lines a person follows: the changes planned and the summary. */
function terraform(cwd, env, args) {
  return new Promise((resolve) => {
    const child = spawn('terraform', args, { cwd, env });
    let output = '';
    const show = (chunk) => {
      output += chunk;
      for (const line of String(chunk).split('\n')) {
        if (/^(Apply complete|No changes|Destroy complete|Plan:|Error|│ Error)/.test(line)) say(`   ${line}`);
        else if (/# .* (will be created|will be updated in-place|will be destroyed)|^\s+~ \w+\s+=/.test(line)) say(`   ${line.trim()}`);
      }
    };
    child.stdout.on('data', show);
    child.stderr.on('data', show);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function main() {
  if (run('terraform', ['version'], { env: { ...process.env, CHECKPOINT_DISABLE: '1' } }).status !== 0) {
    fail('terraform is not on PATH; install Terraform 1.5 or newer');
  }

  step(1, 'Building the provider and handler bundles and the library (npx projen compile)');
  const build = run('npx', ['projen', 'compile'], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (build.status !== 0) fail(`the build failed:\n${build.stderr}`);
  say('   done');

  step(2, 'Starting the Hosting API simulator on 127.0.0.1');
  const { startSimulator } = require('../lib/simulator');
  const sim = await startSimulator({ operationDelays: { queuedMs: 300, runningMs: 900 } });
  say(`   base URL:  ${sim.baseUrl}`);
  say(`   live page: ${sim.dashboardUrl} (open it in a browser to watch every request and change below)`);
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
    say(`   ${stackDir}/cdk.tf.json (no token in it: the provider reads HOSTING_API_TOKEN where terraform runs)`);
    say('   the hosting provider is written beside it, in terraform.d/plugins (linux and darwin, amd64 and arm64)');

    step(4, 'terraform init: installs the provider from the stack\'s own directory; nothing is downloaded');
    const init = await terraform(stackDir, env, ['init', '-input=false', '-no-color']);
    if (init.code !== 0) fail(`terraform init failed:\n${init.output}`);
    say('   initialized');

    step(5, 'terraform apply: the provider reads each server, diffs, and writes only what differs');
    if ((await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color'])).code !== 0) fail('terraform apply failed');

    step(6, 'What changed on the servers');
    const server = (id) => sim.state.server(id);
    say(`   vps_web_1 firewall: ${JSON.stringify(server('vps_web_1').firewall)}`);
    const ip = server('ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b').ipSettings.get('203.0.113.11');
    say(`   203.0.113.11: rdns ${ip.rdns}, description "${ip.description}", protection ${ip.protection.layer4}/${ip.protection.layer7}`);
    say(`   vps_web_2 power: ${server('vps_web_2').server.power}`);
    say(`   writes the simulator executed: ${sim.executed().map((w) => `${w.serverId} ${w.kind}`).join('; ')}`);
    const ids = run('terraform', ['output', '-json', 'server_ids'], { cwd: stackDir, env });
    say(`   the hosting_servers data source (DataHostingServers) read the account: ${JSON.parse(ids.stdout).join(', ')}`);

    step(7, 'terraform apply again: the refresh reads, nothing is written');
    const before = sim.requests.length;
    const writesBefore = sim.executed().length;
    const again = await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    if (again.code !== 0 || !again.output.includes('No changes.')) fail('the second apply was not a no-op');
    say(`   requests to the API: ${sim.requests.length - before} reads (the power states share one GET /servers), ${sim.executed().length - writesBefore} writes`);

    step(8, 'Someone disables the firewall and changes the rDNS in the control panel; terraform plan shows it');
    sim.drift('vps_web_1', { firewall: { enabled: false } });
    sim.drift('ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', { ip: { address: '203.0.113.11', rdns: 'hijacked.example.net' } });
    const plan = await terraform(stackDir, env, ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    say(`   (exit ${plan.code}: 2 means out of sync)`);
    if (plan.code !== 2) fail('terraform plan did not show the drift');

    step(9, 'Repair it: a plain terraform apply, in place (no -replace, nothing destroyed)');
    const repair = await terraform(stackDir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    if (repair.code !== 0 || !repair.output.includes('0 added, 2 changed, 0 destroyed')) fail('the repair failed');

    step(10, 'Adopting an account as it is: cdktf-server-hosting adopt writes a program that imports every setting');
    const adopted = join(work, 'adopted.tf');
    // Not spawnSync: the simulator answers on this process's event loop.
    const adopt = await new Promise((resolve) => {
      const child = spawn('node', [join(root, 'bin', 'cdktf-server-hosting'), 'adopt', '--language', 'hcl', '--out', adopted], { env });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    if (adopt.code !== 0) fail(`adopt failed:\n${adopt.stderr}`);
    say(`   ${adopt.stderr.trim().split('\n').pop()} (also --language typescript or python; the first plan shows only imports)`);

    step(11, 'terraform destroy: the settings are retained on the servers (see docs/guides/design.md, "Destroy retains")');
    if ((await terraform(stackDir, env, ['destroy', '-auto-approve', '-input=false', '-no-color'])).code !== 0) fail('terraform destroy failed');
    say(`   vps_web_1 firewall after destroy: ${JSON.stringify(server('vps_web_1').firewall)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (process.argv.includes('--keep')) {
    step(12, `The demo went as shown. The simulator keeps running: ${sim.dashboardUrl} (Ctrl-C stops it)`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
    await sim.close();
    return;
  }
  await sim.close();
  step(12, 'Simulator stopped. The demo went as shown.');
  say('   To look at the live page afterwards: npm run demo -- --keep (the simulator stays up until Ctrl-C),');
  say('   or node bin/cdktf-server-hosting simulator, which prints its address.');
}

main().catch((err) => fail(err.stack ?? String(err)));
