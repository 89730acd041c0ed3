import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, normalize } from 'node:path';
import { createServerCertificate } from '../../src/provider/plugin/certificate';

export interface HttpsMirror {
  /** `https://localhost:<port>/`, for a `network_mirror` block. */
  readonly url: string;
  /** `localhost:<port>`, a registry host. */
  readonly host: string;
  /** The throw-away CA, for `SSL_CERT_FILE`. */
  readonly caFile: string;
  close(): Promise<void>;
}

/** What a static host must say each file is: Terraform reads the registry's JSON documents (extension-less ones too) only as application/json. */
const contentType = (file: string) => {
  if (file.endsWith('.zip')) return 'application/zip';
  if (file.endsWith('.sig')) return 'application/pgp-signature';
  if (file.endsWith('SHA256SUMS')) return 'text/plain';
  return 'application/json';
};

/** A folder served as a static HTTPS site, the way a team serves a network mirror or a registry folder. */
export async function serveOverHttps(root: string): Promise<HttpsMirror> {
  const certificate = createServerCertificate();
  const server = createServer({ key: certificate.keyPem, cert: certificate.certPem }, (req, res) => {
    const file = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'https://localhost').pathname)));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': contentType(file) }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const caFile = join(root, '..', 'ca.pem');
  writeFileSync(caFile, certificate.certPem);
  const host = `localhost:${(server.address() as { port: number }).port}`;
  return {
    url: `https://${host}/`,
    host,
    caFile,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
