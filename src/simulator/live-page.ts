import type { ServerResponse } from 'node:http';
import type { DashboardStream } from './dashboard';
import { readLivePageFile } from './live-page-files';
import { ACCESS_COOKIE, ACCESS_PARAMETER, sameSecret } from './request-guard';

/** The page may load its own script, style and events, and nothing else: no inline script, no other origin. */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE_FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/live-page.js': { file: 'live-page.js', type: 'text/javascript; charset=utf-8' },
  '/live-page.css': { file: 'live-page.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
};

/** The live page, at `<controlUrl>/`: its files, read once, and its event stream. */
export class LivePage {
  private readonly bodies = new Map<string, string>();

  /**
   * @param prefix the control surface's path, e.g. `/__simulator`
   * @param accessKey the key the page asks for when the simulator is reachable from other machines
   */
  constructor(private readonly prefix: string, private readonly stream: DashboardStream, private readonly accessKey?: string) {}

  /** Whether `path` (below the prefix) is one of the page's. */
  public serves(path: string): boolean {
    return path === '' || path === '/events' || path in PAGE_FILES;
  }

  /**
   * Opened from the printed address (`…/__simulator/?access=KEY`), the page keeps the key in a
   * cookie its own requests carry, and drops it from the address bar. True when it answered.
   */
  public acceptAccessKey(url: URL, res: ServerResponse): boolean {
    const given = url.searchParams.get(ACCESS_PARAMETER);
    if (!this.accessKey || given === null || !sameSecret(given, this.accessKey)) return false;
    res.writeHead(303, {
      'set-cookie': `${ACCESS_COOKIE}=${this.accessKey}; Path=${this.prefix}; HttpOnly; SameSite=Strict`,
      'location': `${this.prefix}/`,
      'cache-control': 'no-store',
    }).end();
    return true;
  }

  public serve(path: string, res: ServerResponse): void {
    if (path === '') {
      // The page's files are named relative to it, so it lives at the folder's address.
      res.writeHead(308, { location: `${this.prefix}/` }).end();
      return;
    }
    if (path === '/events') {
      this.stream.watch(res);
      return;
    }
    const { file, type } = PAGE_FILES[path];
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-security-policy': PAGE_POLICY });
    res.end(this.body(file));
  }

  private body(file: string): string {
    let body = this.bodies.get(file);
    if (body === undefined) {
      body = readLivePageFile(file);
      this.bodies.set(file, body);
    }
    return body;
  }
}
