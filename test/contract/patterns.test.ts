import { didYouMeanServerId, isLoopbackHost, isTokenVariableName, likelyName, likelyServerId } from '../../src/contract/patterns';

// Realistic shapes of API tokens: a prefix and 24-40 random characters (mixed-case alphanumerics,
// hex in either case, base64url), and bare random strings. None may pass as a variable name.
const TOKEN_SHAPES = [
  'hsk_live_0123456789abcdef0123',
  'hsk_live_Zx9Qw7Er5Ty3Ui1Op2As4Df6Gh8Jk0Lz',
  'HSK_LIVE_0123456789ABCDEF0123456789ABCDEF',
  'PAT_7F3A9C2E5B1D4F6A8C0E2B4D6F8A0C2E',
  '0123456789abcdef0123456789abcdef',
  '0123456789ABCDEF0123456789ABCDEF01234567',
  'A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6',
  'hsk_dGhpcyBpcyBub3QgYSByZWFsIHRva2Vu-_x',
  'eyJhbGciOiJIUzI1NiJ9_abcDEF123',
  'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'XQZKWJVBNMLPRTYHGFDSAQWERTYUIOPZX',
];

test.each(TOKEN_SHAPES)('a credential-shaped value is not a variable name: %s', (value) => {
  expect(isTokenVariableName(value)).toBe(false);
});

test.each(['HOSTING_API_TOKEN', 'HOSTING_TEST_TOKEN', 'TOKEN', '_PRIVATE', 'PROD_EU_WEST_1_HOSTING_TOKEN', 'HOSTING_TOKEN_V2', 'INFRASTRUCTURE_TOKEN'])(
  'an ordinary variable name passes: %s', (name) => {
    expect(isTokenVariableName(name)).toBe(true);
  },
);

test.each(['hosting_api_token', 'HOSTING-TOKEN', '1TOKEN', '', 'A'.repeat(65), 'MY TOKEN'])('refused as a name: %s', (name) => {
  expect(isTokenVariableName(name)).toBe(false);
});

test.each([
  ['localhost', true], ['127.0.0.1', true], ['127.1.2.3', true], ['[::1]', true],
  ['api.example.com', false], ['10.0.0.1', false], ['127.0.0.1.example.com', false], ['[::2]', false],
])('loopback %s: %s', (host, loopback) => {
  expect(isLoopbackHost(host as string)).toBe(loopback);
});

describe('the server id a malformed one most likely meant', () => {
  test.each([
    ['vps_web_l', 'vps_web_1'],
    ['vps_web_1O', 'vps_web_10'],
    ['VPS_web_1', 'vps_web_1'],
    [' vps_web_1 ', 'vps_web_1'],
    ['DED_6F1C2A9E-0B7D-4E55-9A43-1C2D3E4F5A6B', 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b'],
    ['vsp_web_1', 'vps_web_1'],
    ['psv_web_1', 'vps_web_1'],
    ['vps-web-1', 'vps_web_1'],
    ['vps_web-1', 'vps_web_1'],
    ['vps_web2', 'vps_web_2'],
    ['dde_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b'],
  ])('%j → %j', (typed, meant) => {
    expect(likelyServerId(typed)).toBe(meant);
    expect(didYouMeanServerId(typed)).toBe(`; did you mean "${meant}"?`);
  });

  test.each(['vps_web_1', 'vps_db-eu_2', 'web-1', 'vps_web_x', 'ded_short', 'abc_web_1', ''])('%j: no guess', (typed) => {
    expect(likelyServerId(typed)).toBeUndefined();
    expect(didYouMeanServerId(typed)).toBe('');
  });
});

test.each<[string, string | undefined]>([
  ['webb', 'web'],
  ['Web', 'web'],
  ['sshh', 'ssh'],
  ['ssh-only', undefined],
  ['databse', 'database'],
  ['xyz', undefined],
])('the rule set name %j most likely meant: %j', (typed, meant) => {
  expect(likelyName(typed, ['web', 'ssh', 'database', 'mail'])).toBe(meant);
});

test('no guess when two names are as near', () => {
  expect(likelyName('ab', ['aa', 'bb'])).toBeUndefined();
});
