import { dataSourceSchema, stateOf, type ProviderDataSource } from './data-source';
import { SCOPES, TOKEN_TYPES } from '../../api/schemas';
import { oneOf, membersOf } from '../schema';

/** `hosting_token`: who the token is (GET /connect); needs no scope. */
export const tokenDataSource: ProviderDataSource = {
  typeName: 'hosting_token',
  schema: dataSourceSchema('The token the provider uses (GET /connect): its account, name, type, scopes, and the address the API sees. Needs no scope.', membersOf({
    account_id: ['number', 'The account the token belongs to.'],
    token_name: ['string', 'The token\'s name.'],
    token_type: ['string', `${oneOf(TOKEN_TYPES)}.`],
    scopes: [['list', 'string'], `The scopes the token carries, each ${oneOf(SCOPES)}.`],
    source_ip: ['string', 'The address the API sees requests come from (check it against the token\'s allowlist).'],
    api_version: ['string', 'The API version, `v1`.'],
  })),
  validate: () => [],
  async read(session, config) {
    // ConfigureProvider's test of the token, moments ago in this process: no request of its own.
    const observed = { data: session.tokenInfo(), observedAt: null, stale: false };
    const { accountId, token, sourceIp, apiVersion } = observed.data;
    return stateOf(session, this.typeName, config, observed, {
      account_id: accountId, token_name: token.name, token_type: token.type, scopes: token.scopes, source_ip: sourceIp, api_version: apiVersion,
    });
  },
};

