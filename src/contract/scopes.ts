/**
 * The token scopes of the spec (section 1.3). Here rather than in the API's schemas: the testing
 * kit names them, and the library the jsii runtime loads must not load zod.
 */
export const SCOPES = ['servers:read', 'servers:power', 'servers:control', 'network:read', 'network:write'] as const;
export type Scope = (typeof SCOPES)[number];
