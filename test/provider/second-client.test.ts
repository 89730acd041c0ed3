import { PROVIDER_SCHEMA } from '../../src/provider/configure';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { startGrpcProvider, type GrpcProvider } from '../helpers/grpc-provider';
import { useSimulator } from '../helpers/simulator';

/*
 * What a protocol client other than Terraform may send (tofusoup, say), which the protocol allows:
 * values as JSON `DynamicValue`s beside msgpack, and GetFunctions, whose answer for a provider with
 * no functions is an empty list.
 */
const s = useSimulator();
let provider: GrpcProvider;
beforeEach(async () => {
  const block: ObjectValue = Object.fromEntries(PROVIDER_SCHEMA.block.attributes.map((a: { name: string }) => [a.name, null]));
  provider = await startGrpcProvider({ env: { HOSTING_API_TOKEN: s.sim.tokens.full, HOSTING_API_URL: s.sim.baseUrl }, log: () => undefined }, block);
});
afterEach(() => provider.close());

const json = (value: unknown) => ({ json: Buffer.from(JSON.stringify(value)) });

test('a configuration sent as JSON is read as msgpack would be', async () => {
  const firewall = { id: null, server_id: 'vps_web', enabled: true, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null, expect_takeover: null, changed_since_plan: null };
  const validated = await provider.call('ValidateResourceConfig', { type_name: 'hosting_server_firewall', config: json(firewall) });
  expect(validated.diagnostics.map((d: { summary: string }) => d.summary)).toEqual([expect.stringContaining('invalid server_id')]);
  expect(validated.diagnostics.map((d: { summary: string }) => d.summary).join()).not.toContain('received undefined');
  const language = await provider.call('ValidateProviderConfig', { config: json({ message_language: 'pyhton' }) });
  expect(language.diagnostics.map((d: { summary: string }) => d.summary)).toEqual([expect.stringContaining('did you mean "python"?')]);
});

test('GetFunctions answers an empty list, not UNIMPLEMENTED', async () => {
  expect(await provider.call('GetFunctions', {})).toEqual({ diagnostics: [] });
});
