/*
 * Where Terraform finds the provider this package ships. The hostname is one no registry serves:
 * the package is always installed from the stack's own local mirror.
 */

/** The provider's type name: resources are `hosting_…`. */
export const PROVIDER_TYPE = 'hosting';

/** `hostname/namespace/type`, as `required_providers` and the mirror's folders spell it. */
export const PROVIDER_SOURCE = `local.cdktf-server-hosting.invalid/cdktf-server-hosting/${PROVIDER_TYPE}`;
