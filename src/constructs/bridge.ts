/** The Terraform resource that carries each construct's handler into `terraform apply`. */
export enum Bridge {
  /** Terraform's built-in `terraform_data` (Terraform 1.4+): needs no provider download, so `terraform init` works offline. */
  TERRAFORM_DATA = 'terraform_data',
  /**
   * `null_resource` from the `hashicorp/null` provider, through `@cdktf/provider-null` (an optional
   * peer dependency: install it to use this bridge; `terraform init` then downloads the provider).
   */
  NULL_RESOURCE = 'null_resource',
}
