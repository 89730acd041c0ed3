import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, normalize } from 'node:path';
import { createServerCertificate } from '../../src/provider/certificate';

export interface HttpsMirror {
  /** `https://localhost:<port>/`, for a `network_mirror` block. */
  readonly url: string;
  /** The throw-away CA, for `SSL_CERT_FILE`. */
  readonly caFile: string;
  close(): Promise<void>;
}

/** A packed mirror folder served as a static HTTPS site, the way a team serves a network mirror. */
export async function serveOverHttps(root: string): Promise<HttpsMirror> {
  const certificate = createServerCertificate();
  const server = createServer({ key: certificate.keyPem, cert: certificate.certPem }, (req, res) => {
    const file = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'https://localhost').pathname)));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.json') ? 'application/json' : 'application/zip' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const caFile = join(root, '..', 'ca.pem');
  writeFileSync(caFile, certificate.certPem);
  return {
    url: `https://localhost:${(server.address() as { port: number }).port}/`,
    caFile,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
