/*
 * Where Terraform finds the provider this package ships. The hostname is one no registry serves:
 * the package is always installed from the stack's own local mirror.
 */

/** The provider's type name: resources are `hosting_…`. */
export const PROVIDER_TYPE = 'hosting';

/** `hostname/namespace/type`, as `required_providers` and the mirror's folders spell it. */
export const PROVIDER_SOURCE = `local.cdktf-server-hosting.invalid/cdktf-server-hosting/${PROVIDER_TYPE}`;

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;
const NAMESPACE = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** A registry host as a source address spells it: a host name, optionally with a port (`localhost:8443`). */
export const isRegistryHost = (text: string) => HOST.test(text);
/** A namespace as a source address spells it: lower-case letters, digits and inner hyphens. */
export const isNamespace = (text: string) => NAMESPACE.test(text);

/**
 * A source address a platform team publishes the provider under, `HOST/NAMESPACE/hosting` (lower
 * case, as Terraform normalizes it): the type stays `hosting`, since every resource is `hosting_…`.
 * Throws, saying what is expected, for anything else.
 */
export function parseProviderSource(text: string): string {
  const source = text.trim().toLowerCase();
  const [host, namespace, type, ...rest] = source.split('/');
  if (!isRegistryHost(host ?? '') || !isNamespace(namespace ?? '') || type !== PROVIDER_TYPE || rest.length) {
    throw new Error(`--source ${JSON.stringify(text)} is not a provider address HOST/NAMESPACE/${PROVIDER_TYPE} (e.g. registry.example.com/platform/${PROVIDER_TYPE}); the type stays "${PROVIDER_TYPE}", which every resource name starts with`);
  }
  return source;
}
