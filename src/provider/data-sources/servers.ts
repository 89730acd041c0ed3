import { attributesOf, dataSourceSchema, stateOf, type ProviderDataSource } from './data-source';
import { SERVER_MEMBERS } from '../api-members';
import { listOf } from '../schema';
import { filterProblems, SERVER_FILTER_ATTRIBUTES, selectsServer } from '../server-filters';

/** `hosting_servers`: every server of the account (GET /servers, read once per run), optionally filtered. */
export const serversDataSource: ProviderDataSource = {
  typeName: 'hosting_servers',
  schema: dataSourceSchema('Every server of the account, shared ones included (GET /servers, read once per run however many data sources and resources need it), optionally filtered.', [
    ...SERVER_FILTER_ATTRIBUTES,
    { name: 'servers', type: listOf(SERVER_MEMBERS), computed: true, description: 'The matching servers, each with every member of the list endpoint.' },
    { name: 'ids', type: ['list', 'string'], computed: true, description: 'The ids of the matching servers, in the API\'s order.' },
  ]),
  validate(config) {
    return filterProblems(this.typeName, config);
  },
  async read(session, config) {
    const observed = await session.serverList();
    const matching = observed.data.filter(selectsServer(config));
    return stateOf(session, this.typeName, config, observed, { servers: attributesOf(matching), ids: matching.map((s) => s.id) });
  },
};
