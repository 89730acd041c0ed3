import { loadEmbeddedProvider } from './plugin/embedded-program';
import { serveTerraform, startedByTerraform } from './plugin/serve';

/*
 * Entry point of the bundled provider (assets/provider/provider.js), which node runs when Terraform
 * starts it. The standalone executable has an entry of its own (src/cli/executable-main.ts).
 */
if (startedByTerraform(process.env)) {
  serveTerraform(loadEmbeddedProvider);
} else {
  process.stderr.write('This is a Terraform provider plugin: Terraform starts it; it is not meant to be run by hand.\n');
  process.exit(1);
}
