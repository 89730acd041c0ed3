import type { ObjectValue, ProviderResource } from './resource';
import { decodeDynamic, encodeValue, UNKNOWN, type Value } from '../plugin/values';

/*
 * Resource identity (Terraform 1.12+): the values that name a resource's remote object, apart from
 * its settings. Terraform stores it beside the state (`terraform show -json` shows it), imports
 * by it (`import { identity = { … } }`), and `terraform query` lists resources by it. Every
 * identity attribute is a string the resource's state holds under the same name.
 */

/** Version 0, the only one so far; UpgradeResourceIdentity keeps what it knows of a stored one. */
export const IDENTITY_VERSION = 0;

/** The `terraform import` id an identity stands for: its attributes, joined with `/`. */
export const importIdOf = (resource: ProviderResource, identity: ObjectValue): string => resource.identity.attributes.map((a) => String(identity[a.name])).join('/');

/** The wire shape of `tfplugin6.ResourceIdentitySchema`. */
export function identitySchema(resource: ProviderResource) {
  return {
    version: IDENTITY_VERSION,
    identity_attributes: resource.identity.attributes.map((a) => ({
      name: a.name,
      type: Buffer.from(JSON.stringify('string')),
      required_for_import: true,
      description: a.description,
    })),
  };
}

/** The identity of a state, as `ResourceIdentityData`; an attribute Terraform does not know yet stays unknown. */
export function identityData(resource: ProviderResource, state: ObjectValue | null) {
  if (!state) return undefined;
  const identity: ObjectValue = Object.fromEntries(resource.identity.attributes.map((a) => [a.name, state[a.name] ?? UNKNOWN]));
  return { identity_data: { msgpack: encodeValue(identity) } };
}

/** The identity Terraform sent, its attributes only; undefined when it sent none. */
type IdentityData = { identity_data?: { msgpack?: Uint8Array; json?: Uint8Array } } | undefined;

export function identityFrom(resource: ProviderResource, data: IdentityData): ObjectValue | undefined {
  const bytes = data?.identity_data;
  if (!bytes?.msgpack?.length && !bytes?.json?.length) return undefined;
  const value = decodeDynamic(bytes) as ObjectValue;
  return Object.fromEntries(resource.identity.attributes.map((a) => [a.name, (value[a.name] ?? null) as Value]));
}
