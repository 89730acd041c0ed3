// The real terraform for the benchmarks: run in a folder with the tests' CLI configuration, its
// output kept, its wall time measured.
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const RC = join(__dirname, '..', 'test', 'e2e', 'terraform.rc');

/** Runs `terraform args` in `dir`; resolves with its exit code, output (stdout and stderr) and wall seconds. */
function terraform(dir, args, env) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn('terraform', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: RC, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output, wall: Number(process.hrtime.bigint() - started) / 1e9 }));
  });
}

module.exports = { terraform };
