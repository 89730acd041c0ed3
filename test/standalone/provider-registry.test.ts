import { providerRegistryTests } from '../helpers/provider-registry-tests';
import { describeWithTerraform, pathWithTerraformOnly } from '../helpers/terraform';

describeWithTerraform('a provider registry in a folder, served over HTTPS, with terraform alone on PATH', () => providerRegistryTests(pathWithTerraformOnly));
