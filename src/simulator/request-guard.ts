import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { headerValue as single } from './http';

/*
 * Who may talk to a simulator. It runs on developers' machines beside their browsers, and its
 * control surface changes what their tests see, so: a request must name a host the simulator
 * listens as (a web page that rebinds its own name to 127.0.0.1 names itself); a control request
 * that changes something must be JSON from the simulator's own origin (a form or a `no-cors` fetch
 * on another site can send neither); and on an address other machines reach, the control surface
 * and the live page ask for the access key printed at start.
 */

/** Headers as Node gives them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The cookie the live page keeps the access key in, once opened from the printed address. */
export const ACCESS_COOKIE = 'hosting_simulator_access';

/** The query parameter of the printed address that carries the access key to the live page. */
export const ACCESS_PARAMETER = 'access';

/** True for addresses and names only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const name = bareHostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || /^::ffff:127\./.test(name);
}

/** True for the addresses that listen on every interface. */
export function isWildcardHost(host: string): boolean {
  const name = bareHostName(host);
  return name === '0.0.0.0' || name === '::';
}

/**
 * The host names requests may name: the loopback names, the address listened on, and the names the
 * user allowed (`--allow-host`; for `--host 0.0.0.0`, the caller adds the machine's own names).
 */
export function servedHostNames(listenHost: string, allowed: readonly string[] = []): Set<string> {
  const names = ['localhost', '127.0.0.1', '::1', listenHost, ...allowed].map(bareHostName);
  return new Set(names.filter((name) => !isWildcardHost(name)));
}

/**
 * Why a request's Host header is refused, or undefined when it names a served host. The answer
 * goes to whoever asked, before any key is checked: it names no host name or address of the
 * machine (the one who runs the simulator knows them; a page that rebinds its name must not learn them).
 */
export function hostRefusal(hostHeader: string | undefined, served: ReadonlySet<string>): string | undefined {
  const name = hostHeader === undefined ? '' : bareHostName(hostHeader);
  // Loopback names are always served: only this machine reaches them, so no other site can rebind one.
  if (served.has(name) || isLoopbackHost(name)) return undefined;
  const shown = hostHeader === undefined ? 'without a Host header' : `for the host ${JSON.stringify(hostHeader.slice(0, 100))}`;
  return `this simulator does not answer requests ${shown}. `
    + 'Use localhost or the address it listens on in the URL, or start the simulator with --allow-host NAME for a name of your own.';
}

/**
 * Why a control request that changes something is refused, or undefined: it must declare JSON and
 * must not come from another site. `ownOrigin` is `http://` and the (served) Host the request named.
 */
export function controlWriteRefusal(headers: RequestHeaders, ownOrigin: string): string | undefined {
  const origin = single(headers.origin);
  if (origin !== undefined && origin.toLowerCase() !== ownOrigin.toLowerCase()) {
    return `control requests are accepted from the simulator's own pages only; this one came from ${JSON.stringify(origin.slice(0, 200))}`;
  }
  const site = single(headers['sec-fetch-site']);
  if (site === 'cross-site' || site === 'same-site') {
    return `control requests are accepted from the simulator's own pages only; the browser marked this one ${site}`;
  }
  const type = single(headers['content-type'])?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    return `a control request that changes something must be JSON: send the header "content-type: application/json" (this one had ${type ? JSON.stringify(type) : 'none'})`;
  }
  return undefined;
}

/** Whether the request carries the access key, as a bearer token or in the live page's cookie. */
export function carriesAccessKey(headers: RequestHeaders, key: string): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(single(headers.authorization) ?? '')?.[1];
  return [bearer, cookieValue(single(headers.cookie), ACCESS_COOKIE)].some((given) => given !== undefined && sameSecret(given, key));
}

/** Compares in constant time, so the key cannot be guessed a character at a time from answer times. */
export function sameSecret(given: string, key: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(key)];
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The host name of a Host header or an address: no port, no brackets, lower case, no final dot. */
function bareHostName(host: string): string {
  const text = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1];
  if (isIP(text) === 6) return text;
  return text.replace(/:\d+$/, '').replace(/\.$/, '');
}
