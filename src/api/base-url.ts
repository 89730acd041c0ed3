import { isLoopbackHost, printableUrl } from '../contract/patterns';

export interface BaseUrlOptions {
  /** Accept plain http to hosts other than this machine (the token then crosses the network in clear text). */
  readonly allowInsecureHttp?: boolean;
  /**
   * How the caller's user turns on `allowInsecureHttp`, for the message that refuses plain http.
   * @default 'allowInsecureHttp (allow_insecure_http in Python) on the HostingApi construct'
   */
  readonly insecureSetting?: string;
}

/**
 * Section 1, rule 1: the base URL already ends in `/api/v1`. Returns it without a trailing slash.
 * Credentials in the URL are refused: they would be printed wherever the URL is. Plain http is
 * refused unless the host is this machine or the caller opted in.
 */
export function normalizeBaseUrl(input: string, options: BaseUrlOptions = {}): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`invalid Hosting API base URL "${printableUrl(input)}": not an absolute URL (expected e.g. https://api.example.com/api/v1)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`invalid Hosting API base URL "${url.origin}": the scheme must be https or http`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
    throw new Error(
      `invalid Hosting API base URL "${url.origin}": plain http would send the token in clear text; use https, ` +
      `or set ${options.insecureSetting ?? 'allowInsecureHttp (allow_insecure_http in Python) on the HostingApi construct'} if the network path is protected otherwise`,
    );
  }
  if (url.username || url.password) {
    throw new Error('invalid Hosting API base URL: it must not contain credentials; pass the token through its environment variable');
  }
  if (url.search || url.hash) {
    throw new Error(`invalid Hosting API base URL "${url.origin}${url.pathname}": it must not have a query or fragment`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api/v1')) {
    throw new Error(`invalid Hosting API base URL "${url.origin}${url.pathname}": the path must end in /api/v1`);
  }
  return `${url.origin}${path}`;
}
