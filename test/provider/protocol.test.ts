import { PROTOCOL, PROVIDER_SERVICE } from '../../src/provider/plugin/protocol';

/*
 * The provider resolves each message type of its descriptor at the first message of that type
 * (protocol.ts). A misspelt type would then fail only when Terraform first sends or asks for it:
 * here every type is resolved, and every RPC reads and writes an empty message.
 */

test('every type of the protocol descriptor resolves', () => {
  expect(() => PROTOCOL.resolveAll()).not.toThrow();
});

test.each(Object.entries(PROVIDER_SERVICE))('%s reads its request and writes its response', (_name, method) => {
  expect(method.path).toMatch(/^\/tfplugin6\.Provider\/[A-Za-z]+$/);
  expect(method.requestDeserialize(Buffer.alloc(0))).toEqual(expect.any(Object));
  expect(method.responseSerialize({})).toEqual(Buffer.alloc(0));
});
