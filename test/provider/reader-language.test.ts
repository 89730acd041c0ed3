import { inReaderLanguage, languageOf, settingNames } from '../../src/provider/reader-language';
import { TAKEOVER_SILENCED } from '../../src/provider/resources/resource';

const NAMES = settingNames([
  { attributes: [{ name: 'expect_takeover' }, { name: 'ruleset_names' }, { name: 'state' }, { name: 'server_id' }, { name: 'token_env_var' }], block_types: [{ type_name: 'timeouts', block: { attributes: [{ name: 'ready_timeout_seconds' }] } }] },
]);

describe('a provider message in its reader\'s language', () => {
  test.each([
    ['typescript', 'Once reviewed, expectTakeover: true stops this warning. The provider guide, "Creates take over what exists", says why.'],
    ['python', 'Once reviewed, expect_takeover=True stops this warning. The provider guide, "Creates take over what exists", says why.'],
    ['hcl', TAKEOVER_SILENCED],
  ] as const)('the takeover warning in %s names the setting as that language writes it, and no other', (language, told) => {
    expect(inReaderLanguage(TAKEOVER_SILENCED, language, NAMES)).toBe(told);
  });

  test('names in prose change; a one-word name changes only where it is assigned; values, ids and variables stay as they are', () => {
    const text = 'state = "runing" is not a state; use ruleset_names for vps_web_1 ("ruleset_names" is a value) and set HOSTING_API_TOKEN';
    expect(inReaderLanguage(text, 'typescript', NAMES)).toBe('state: "runing" is not a state; use rulesetNames for vps_web_1 ("ruleset_names" is a value) and set HOSTING_API_TOKEN');
    expect(inReaderLanguage(text, 'python', NAMES)).toBe('state="runing" is not a state; use ruleset_names for vps_web_1 ("ruleset_names" is a value) and set HOSTING_API_TOKEN');
  });

  test('the provider block is the HostingApi construct for a construct\'s reader; lists, numbers and nested block settings are told too', () => {
    const text = 'token_env_var in the provider "hosting" block is not a name; ready_timeout_seconds = 5 and ruleset_names = ["web", "db"]';
    expect(inReaderLanguage(text, 'typescript', NAMES)).toBe('tokenEnvVar in the HostingApi construct is not a name; readyTimeoutSeconds: 5 and rulesetNames: ["web", "db"]');
    expect(inReaderLanguage(text, 'python', NAMES)).toBe('token_env_var in the HostingApi construct is not a name; ready_timeout_seconds=5 and ruleset_names=["web", "db"]');
  });

  test('a provider block without a language, or with one the provider does not speak, is read in HCL', () => {
    expect([undefined, null, 'typescript', 'python', 'Python', 'go'].map(languageOf)).toEqual(['hcl', 'hcl', 'typescript', 'python', 'hcl', 'hcl']);
  });
});
