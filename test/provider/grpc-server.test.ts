import { connect, type ClientHttp2Session } from 'node:http2';
import { createServerCertificate } from '../../src/provider/plugin/certificate';
import { createGrpcServer, MAX_REQUEST_BYTES, routesOf, type GrpcServer, type Router, type ServiceDefinition } from '../../src/provider/plugin/grpc-server';

/*
 * The provider's gRPC server speaks to Terraform through the real terraform in every e2e suite;
 * these cases are the ones Terraform never sends: unknown methods, compressed or oversized
 * messages, a client without the certificate Terraform gave.
 */
const json = (value: object) => Buffer.from(JSON.stringify(value));
const method = (name: string, responseStream = false) => ({
  path: `/test.Service/${name}`,
  responseStream,
  requestDeserialize: (bytes: Buffer) => JSON.parse(bytes.toString()) as Record<string, any>,
  responseSerialize: json,
});
const SERVICE: ServiceDefinition = { Echo: method('Echo'), Count: method('Count', true), Fail: method('Fail') };
function withLength(payload: Buffer, compressed: number): Buffer {
  const head = Buffer.alloc(5);
  head[0] = compressed;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}
const messagesOf = (body: Buffer) => {
  const out: unknown[] = [];
  for (let at = 0; at < body.length; at += 5 + body.readUInt32BE(at + 1)) {
    out.push(JSON.parse(body.subarray(at + 5, at + 5 + body.readUInt32BE(at + 1)).toString()));
  }
  return out;
};

/** A service loaded at its first call (as serve.ts loads the provider) whose loading fails. */
const unloadableOr = (routes: Router): Router => (path) => {
  if (path.startsWith('/test.Unloadable/')) throw new Error('the program is missing');
  return routes(path);
};

const server = createServerCertificate();
const client = createServerCertificate();
let grpc: GrpcServer;
let port: number;
let session: ClientHttp2Session;

beforeAll(async () => {
  grpc = createGrpcServer({ certPem: server.certPem, keyPem: server.keyPem, clientCertPem: client.certPem }, unloadableOr(routesOf([[SERVICE, {
    Echo: (echo, callback) => callback(null, { echo: echo.request.text }),
    Count: (count) => {
      const stream = count as unknown as { request: { to: number }; write(m: object): void; end(): void };
      for (let i = 1; i <= stream.request.to; i++) stream.write({ i });
      stream.end();
    },
    Fail: (_call, callback) => callback(new Error('went wrong')),
  }]])));
  port = await grpc.listen();
  session = connect(`https://127.0.0.1:${port}`, { ca: server.certPem, cert: client.certPem, key: client.keyPem, servername: 'localhost' });
});
afterAll(async () => {
  session?.close();
  await new Promise<void>((resolve) => grpc.shutdown(resolve));
});

function call(path: string, body: Buffer): Promise<{ status?: string; message?: string; messages: unknown[] }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', 'te': 'trailers' });
    const chunks: Buffer[] = [];
    let headers: Record<string, unknown> = {};
    stream.on('response', (h) => (headers = h));
    stream.on('trailers', (t) => (headers = { ...headers, ...t }));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status: headers['grpc-status'] as string, message: headers['grpc-message'] && decodeURIComponent(String(headers['grpc-message'])), messages: messagesOf(Buffer.concat(chunks)) }));
    stream.on('error', reject);
    stream.end(body);
  });
}

test('a unary call answers one message and status 0; a server stream answers each event, then status 0', async () => {
  expect(await call('/test.Service/Echo', withLength(json({ text: 'hi' }), 0))).toEqual({ status: '0', messages: [{ echo: 'hi' }] });
  expect(await call('/test.Service/Count', withLength(json({ to: 3 }), 0))).toEqual({ status: '0', messages: [{ i: 1 }, { i: 2 }, { i: 3 }] });
});

test('what Terraform never sends is refused with a gRPC status, not a dropped connection', async () => {
  expect(await call('/test.Service/Nope', withLength(json({}), 0))).toMatchObject({ status: '12', messages: [] });
  expect(await call('/test.Service/Echo', withLength(json({ text: 'hi' }), 1))).toMatchObject({ status: '12', message: 'compressed messages are not supported' });
  expect(await call('/test.Service/Echo', Buffer.concat([withLength(json({}), 0), withLength(json({}), 0)]))).toMatchObject({ status: '13' });
  expect(await call('/test.Service/Echo', withLength(Buffer.from('not json'), 0))).toMatchObject({ status: '3' });
  expect(await call('/test.Service/Fail', withLength(json({}), 0))).toMatchObject({ status: '13', message: 'went wrong' });
  expect(await call('/test.Service/Echo', withLength(Buffer.alloc(MAX_REQUEST_BYTES + 1, 32), 0))).toMatchObject({ status: '8' });
  expect(await call('/test.Unloadable/Call', withLength(json({}), 0))).toMatchObject({ status: '13', message: 'the provider could not load: the program is missing' });
  // The session still serves after each refusal.
  expect(await call('/test.Service/Echo', withLength(json({ text: 'again' }), 0))).toEqual({ status: '0', messages: [{ echo: 'again' }] });
});

test('a client without the certificate Terraform gave is not served', async () => {
  const stranger = createServerCertificate();
  const other = connect(`https://127.0.0.1:${port}`, { ca: server.certPem, cert: stranger.certPem, key: stranger.keyPem, servername: 'localhost' });
  const failed = await new Promise<boolean>((resolve) => {
    other.on('error', () => resolve(true));
    other.on('close', () => resolve(true));
    const stream = other.request({ ':method': 'POST', ':path': '/test.Service/Echo' });
    stream.on('response', () => resolve(false));
    stream.on('error', () => resolve(true));
    stream.on('close', () => resolve(true));
    stream.end(withLength(json({ text: 'hi' }), 0));
  });
  other.destroy();
  expect(failed).toBe(true);
});
