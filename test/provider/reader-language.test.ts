import { ChangedSincePlan, Layer4Protection, Layer7Protection, OnDestroy, PowerStateValue, StopMethod } from '../../src/constructs';
import { ENUM_SETTINGS, inReaderLanguage, languageOf, settingNames } from '../../src/provider/reader-language';
import { TAKEOVER_SILENCED } from '../../src/provider/resources/effects';

const NAMES = settingNames([
  { attributes: [{ name: 'expect_takeover' }, { name: 'ruleset_names' }, { name: 'state' }, { name: 'server_id' }, { name: 'token_env_var' }, { name: 'changed_since_plan' }, { name: 'on_destroy' }], block_types: [{ type_name: 'timeouts', block: { attributes: [{ name: 'ready_timeout_seconds' }] } }] },
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

  // Issue 60 §1: the edges of a reader's language.
  test('a setting that takes an enum is told as its member; a value it does not have stays a string', () => {
    expect(inReaderLanguage('set changed_since_plan = "fail" on it, or state = "runing"', 'typescript', NAMES)).toBe('set changedSincePlan: ChangedSincePlan.FAIL on it, or state: "runing"');
    expect(inReaderLanguage('on_destroy = "restore"', 'python', NAMES)).toBe('on_destroy=OnDestroy.RESTORE');
  });

  test('a name inside a path, a host name or the API\'s own words is left as it is; a quoted name holding a quote stays one value', () => {
    const text = [
      'var.server_id is unknown; rdns on_destroy.example.com is set; server_id must be set',
      'rule set name "we\\"b server_id" does not exist',
      '  API: 422 validation_failed (request id r1): server_id is not editable for ruleset_names',
      '  field server_id: must be set',
    ].join('\n');
    expect(inReaderLanguage(text, 'typescript', NAMES).split('\n')).toEqual([
      'var.server_id is unknown; rdns on_destroy.example.com is set; serverId must be set',
      'rule set name "we\\"b server_id" does not exist',
      '  API: 422 validation_failed (request id r1): server_id is not editable for ruleset_names',
      '  field server_id: must be set',
    ]);
  });

  test('an HCL data source named in a hint is its construct for a construct\'s reader', () => {
    const hint = 'use an id that GET /servers (or the hosting_servers data source) lists';
    expect(inReaderLanguage(hint, 'typescript', NAMES)).toBe('use an id that GET /servers (or the DataHostingServers construct) lists');
    expect(inReaderLanguage(hint, 'python', NAMES)).toBe('use an id that GET /servers (or the DataHostingServers construct) lists');
  });

  test('the enums the messages name are the constructs\' own, value for value', () => {
    const enums: Record<string, Record<string, string>> = {
      ChangedSincePlan, OnDestroy, PowerStateValue, StopMethod, Layer4Protection, Layer7Protection,
    };
    for (const { type, values } of Object.values(ENUM_SETTINGS)) {
      expect([type, Object.values(enums[type]).sort()]).toEqual([type, [...values].sort()]);
    }
  });
});
