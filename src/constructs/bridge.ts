/** How Terraform runs the constructs: this package's own provider, or a bridge resource and the handler. */
export enum Bridge {
  /**
   * This package's Terraform provider (`hosting_…` resources), written into the synthesized stack:
   * Terraform reads the servers, so drift shows in `terraform plan` and is repaired in place, and
   * `terraform import` and `importExisting()` work. The default. Needs Node (22 or 24) where Terraform
   * runs, and no download: `terraform init` installs it from the stack's directory.
   */
  PROVIDER = 'provider',
  /**
   * Terraform's built-in `terraform_data` (Terraform 1.4+), whose create-time `local-exec` runs the
   * handler: for places that cannot run a local provider. Terraform never reads the servers, so
   * drift is repaired only by `apply -replace`.
   */
  TERRAFORM_DATA = 'terraform_data',
  /**
   * `null_resource` from the `hashicorp/null` provider, written without prebuilt provider bindings
   * (nothing to install in any language); `terraform init` downloads the provider.
   */
  NULL_RESOURCE = 'null_resource',
}
