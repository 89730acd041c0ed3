/** How Terraform runs the constructs: this package's own provider, or a bridge resource and the handler. */
export enum Bridge {
  /**
   * This package's Terraform provider (`hosting_…` resources), written into the synthesized stack:
   * Terraform reads the servers, so drift shows in `terraform plan` and is repaired in place, and
   * `terraform import` works. Serves `ServerFirewall` in this release; needs Node 20+ where
   * Terraform runs, no download.
   */
  PROVIDER = 'provider',
  /** Terraform's built-in `terraform_data` (Terraform 1.4+): needs no provider download, so `terraform init` works offline. */
  TERRAFORM_DATA = 'terraform_data',
  /**
   * `null_resource` from the `hashicorp/null` provider, through `@cdktf/provider-null` (an optional
   * peer dependency: install it to use this bridge; `terraform init` then downloads the provider).
   */
  NULL_RESOURCE = 'null_resource',
}
