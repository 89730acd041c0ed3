import { serveTerraform, startedByTerraform } from '../provider/plugin/serve';

/*
 * Entry point of the standalone executable (assets/standalone/standalone.js inside a Node single
 * executable): started by Terraform, it is the provider; run by hand, the package's command-line
 * tool, so a team with terraform and this one file has the simulator, adopt and the mirrors too.
 */
if (startedByTerraform(process.env)) {
  serveTerraform();
} else {
  // Required here, not imported: the bundle then runs the command-line tool's modules (OpenPGP, the
  // simulator, adopt) only when run by hand, and Terraform, which starts the provider several times
  // a run, waits for none of them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { main } = require('./main') as typeof import('./main');
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
