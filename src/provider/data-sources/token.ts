import { computed, dataSourceSchema, readContext, stateOf, type ProviderDataSource } from './data-source';
import { observeToken } from '../../reconcile/observe';

/** `hosting_token`: who the token is (GET /connect); needs no scope. */
export const tokenDataSource: ProviderDataSource = {
  typeName: 'hosting_token',
  schema: dataSourceSchema('The token the provider uses (GET /connect): its account, name, type, scopes, and the address the API sees. Needs no scope.', computed(
    { account_id: 'number', token_name: 'string', token_type: 'string', scopes: ['list', 'string'], source_ip: 'string', api_version: 'string' },
    { scopes: 'The scopes the token carries, e.g. `servers:read`.', source_ip: 'The address the API sees requests come from (check it against the token\'s allowlist).' },
  )),
  validate: () => [],
  async read(session, config) {
    const observed = await observeToken(readContext(session));
    const { accountId, token, sourceIp, apiVersion } = observed.data;
    return stateOf(session, this.typeName, config, observed, {
      account_id: accountId, token_name: token.name, token_type: token.type, scopes: token.scopes, source_ip: sourceIp, api_version: apiVersion,
    });
  },
};

