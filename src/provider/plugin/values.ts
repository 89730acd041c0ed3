// eslint-disable-next-line import/no-extraneous-dependencies -- bundled into assets/provider/provider.js; lib/ never loads it
import { decode, encode, ExtensionCodec } from '@msgpack/msgpack';

/*
 * Terraform's values on the wire (docs/plugin-protocol/object-wire-format.md): msgpack, where an
 * unknown value ("known after apply") is extension type 0, and extension 12 an unknown with
 * refinements. Objects carry every attribute of their schema, null where absent.
 */

/** A value Terraform does not know yet. */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Value = null | boolean | number | string | typeof UNKNOWN | Value[] | { [name: string]: Value };

/** A resource object as Terraform sends it: every schema attribute, null where unset. */
export type ObjectValue = Record<string, Value>;

const codec = new ExtensionCodec();
codec.register({
  type: 0,
  encode: (value: unknown) => (value === UNKNOWN ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});
codec.register({ type: 12, encode: () => null, decode: () => UNKNOWN });

export function decodeValue(bytes: Uint8Array | undefined): Value {
  if (!bytes || bytes.length === 0) return null;
  return decode(bytes, { extensionCodec: codec }) as Value;
}

/**
 * A `DynamicValue` as Terraform or another protocol client sends it: msgpack, or JSON (which the
 * protocol allows beside it, and which cannot carry an unknown value).
 */
export function decodeDynamic(value: { readonly msgpack?: Uint8Array; readonly json?: Uint8Array } | undefined): Value {
  if (value?.msgpack?.length) return decodeValue(value.msgpack);
  if (value?.json?.length) return JSON.parse(Buffer.from(value.json).toString('utf8')) as Value;
  return null;
}

export function encodeValue(value: Value): Buffer {
  return Buffer.from(encode(value, { extensionCodec: codec }));
}
