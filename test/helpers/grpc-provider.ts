import { connect, type ClientHttp2Session } from 'node:http2';
import type { ProviderEnvironment } from '../../src/provider/configure';
import { createServerCertificate } from '../../src/provider/plugin/certificate';
import { createGrpcServer, routesOf } from '../../src/provider/plugin/grpc-server';
import { PROTOCOL, PROVIDER_SERVICE, type ProviderRpc } from '../../src/provider/plugin/protocol';
import { createProviderService } from '../../src/provider/plugin/provider-server';
import { encodeValue } from '../../src/provider/plugin/values';
import type { ObjectValue } from '../../src/provider/resources/resource';

/*
 * The provider as Terraform reaches it, in this process: its gRPC service (the one serve.ts loads)
 * on a mutual-TLS loopback server, and a client that frames, encodes and decodes each message with
 * the protocol's descriptor. What the in-process handlers never see is on this path: the wire
 * encoding, ConfigureProvider, the service's error wrapping and the reader-language pass.
 */

/** One certificate pair for every server and client of a test file: making one takes a few milliseconds. */
let certificates: { server: ReturnType<typeof createServerCertificate>; client: ReturnType<typeof createServerCertificate> } | undefined;

const CONVERSION = { longs: Number, arrays: true, objects: true } as const;

/** Frames one message: a zero compressed flag and a 4-byte big-endian length before it. */
function framed(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

export interface GrpcProvider {
  /** ConfigureProvider's errors (a refused token, an API that does not answer): Terraform then runs no resource RPC. */
  readonly refusals: string[];
  /** One unary RPC; a gRPC status other than OK rejects with its message. */
  call(rpc: ProviderRpc, request: Record<string, unknown>): Promise<any>;
  /** The process ends: Terraform's connection closes, the server stops. */
  close(): Promise<void>;
}

/** Starts the provider's service on a loopback gRPC server and configures it with `providerBlock`. */
export async function startGrpcProvider(environment: ProviderEnvironment, providerBlock: ObjectValue): Promise<GrpcProvider> {
  certificates ??= { server: createServerCertificate(), client: createServerCertificate() };
  const { server, client } = certificates;
  const route = routesOf([[PROVIDER_SERVICE, createProviderService(environment)]]);
  const grpc = createGrpcServer({ certPem: server.certPem, keyPem: server.keyPem, clientCertPem: client.certPem }, route);
  const port = await grpc.listen();
  const session = connect(`https://127.0.0.1:${port}`, { ca: server.certPem, cert: client.certPem, key: client.keyPem, servername: 'localhost' });
  session.on('error', () => undefined);
  const call = (rpc: ProviderRpc, request: Record<string, unknown>) => unary(session, rpc, request);
  const configured = await call('ConfigureProvider', { config: { msgpack: encodeValue(providerBlock) } });
  const refusals = (configured.diagnostics ?? []).filter((d: { severity: number }) => d.severity === 1).map((d: { summary: string }) => d.summary);
  return {
    refusals,
    call,
    close: () => new Promise((resolve) => {
      session.destroy();
      grpc.shutdown(resolve);
    }),
  };
}

function unary(session: ClientHttp2Session, rpc: ProviderRpc, request: Record<string, unknown>): Promise<any> {
  const requestType = PROTOCOL.lookupType(`tfplugin6.${rpc}.Request`);
  const responseType = PROTOCOL.lookupType(`tfplugin6.${rpc}.Response`);
  const body = framed(requestType.encode(requestType.fromObject(request)).finish());
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': PROVIDER_SERVICE[rpc].path, 'content-type': 'application/grpc', 'te': 'trailers' });
    const chunks: Buffer[] = [];
    let status: Record<string, unknown> = {};
    stream.on('response', (headers) => (status = headers));
    stream.on('trailers', (trailers) => (status = { ...status, ...trailers }));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      if (status['grpc-status'] !== '0') return reject(new Error(`${rpc}: gRPC status ${String(status['grpc-status'])} ${decodeURIComponent(String(status['grpc-message'] ?? ''))}`));
      const answer = Buffer.concat(chunks);
      resolve(responseType.toObject(responseType.decode(answer.subarray(5, 5 + answer.readUInt32BE(1))), CONVERSION));
    });
    stream.end(body);
  });
}
