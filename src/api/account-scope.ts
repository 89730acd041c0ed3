import { createHash } from 'node:crypto';

/**
 * What stands for the account a client writes to, without a request: a digest of the base URL and
 * the token. Two provider aliases (two accounts, or two tokens of one) get two scopes; a rotated
 * token is a new scope, as it may be for the API's memory of keys. The digest is one-way and cut
 * short, so a key or a file name that carries it reveals neither the token nor the URL.
 */
export function accountScope(baseUrl: string, token: string): string {
  return createHash('sha256').update(`cdktf-server-hosting/account\n${baseUrl}\n${token}`).digest('base64url').slice(0, 22);
}
