import { main } from './main';
import { serveTerraform, startedByTerraform } from '../provider/plugin/serve';

/*
 * Entry point of the standalone executable (assets/standalone/standalone.js inside a Node single
 * executable): started by Terraform, it is the provider; run by hand, the package's command-line
 * tool, so a team with terraform and this one file has the simulator, adopt and the mirrors too.
 */
if (startedByTerraform(process.env)) {
  serveTerraform();
} else {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
