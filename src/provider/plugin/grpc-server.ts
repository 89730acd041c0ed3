import { createSecureServer, type Http2Session, type ServerHttp2Stream, type IncomingHttpHeaders } from 'node:http2';

/*
 * The gRPC this provider serves Terraform, over node:http2 with mutual TLS: unary calls and server
 * streams, no compression, on one loopback connection. A general gRPC library (grpc-js) took some
 * 60 ms of each provider process's start-up and a share of every call's CPU for what Terraform never
 * asks of it (channels, channelz, compression, deadlines, client streams); the framing Terraform
 * speaks is in the gRPC over HTTP/2 spec: a 1-byte compressed flag and a 4-byte big-endian length
 * before each message, `grpc-status` in the trailers.
 */

/** One RPC as the protocol descriptor gives it (protocol.ts). */
export interface GrpcMethod {
  readonly path: string;
  readonly responseStream: boolean;
  readonly requestDeserialize: (bytes: Buffer) => any;
  readonly responseSerialize: (value: object) => Buffer;
}

export type ServiceDefinition = Readonly<Record<string, GrpcMethod>>;

export interface UnaryCall {
  readonly request: Record<string, any>;
}
export type UnaryCallback = (error: Error | null, response?: object) => void;
export interface StreamCall extends UnaryCall {
  write(message: object): void;
  end(): void;
}
export type UnaryHandler = (call: UnaryCall, callback: UnaryCallback) => void;
export type StreamHandler = (call: StreamCall) => void;
export type ServiceImplementation = Readonly<Record<string, UnaryHandler | StreamHandler>>;

/** gRPC status codes this server answers with. */
const STATUS = { ok: 0, unimplemented: 12, internal: 13, resourceExhausted: 8, invalidArgument: 3 } as const;

/** The largest request taken, as grpc's default receive limit: Terraform's requests are state and configuration. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export interface GrpcServerOptions {
  /** This server's certificate and key (PEM). */
  readonly certPem: string;
  readonly keyPem: string;
  /** The one client certificate accepted (Terraform's, PEM): mutual TLS. */
  readonly clientCertPem: string;
}

export interface GrpcServer {
  /** Listens on 127.0.0.1 on a free port; resolves with the port. */
  listen(): Promise<number>;
  /** Ends every connection once its calls in flight are answered, then calls `done`. */
  shutdown(done: () => void): void;
}

/** One RPC this server answers: how its messages are read and written, and what answers it. */
export interface Route {
  readonly method: GrpcMethod;
  readonly handler: UnaryHandler | StreamHandler;
}

/** The route of a request's path, if this server answers it; may load what answers on first use. */
export type Router = (path: string) => Route | undefined;

export type Services = ReadonlyArray<readonly [ServiceDefinition, ServiceImplementation]>;

/** The routes of services whose methods each implementation answers. */
export function routesOf(services: Services): Router {
  const routes = new Map<string, Route>();
  for (const [definition, implementation] of services) {
    for (const [name, method] of Object.entries(definition)) {
      const handler = implementation[name] as UnaryHandler | StreamHandler | undefined;
      if (handler) routes.set(method.path, { method, handler });
    }
  }
  return (path) => routes.get(path);
}

export function createGrpcServer(options: GrpcServerOptions, route: Router): GrpcServer {
  const server = createSecureServer({
    cert: options.certPem,
    key: options.keyPem,
    ca: options.clientCertPem,
    requestCert: true,
    rejectUnauthorized: true,
    minVersion: 'TLSv1.2',
  });
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => undefined);
  });
  server.on('stream', (stream, headers) => serveStream(stream, headers, route));
  return {
    listen: () => new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    }),
    shutdown: (done) => {
      server.close(() => done());
      for (const session of sessions) session.close();
    },
  };
}

function serveStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, router: Router): void {
  stream.on('error', () => undefined);
  let route: Route | undefined;
  try {
    route = headers[':method'] === 'POST' ? router(String(headers[':path'])) : undefined;
  } catch (err) {
    return refuse(stream, STATUS.internal, `the provider could not load: ${(err as Error).message}`);
  }
  if (!route) return refuse(stream, STATUS.unimplemented, `unknown method ${String(headers[':path'])}`);
  answer(stream, route);
}

function answer(stream: ServerHttp2Stream, route: Route): void {
  readRequest(stream, (status, message, body) => {
    if (status !== STATUS.ok) return refuse(stream, status, message);
    let request: Record<string, any>;
    try {
      request = route.method.requestDeserialize(body!);
    } catch (err) {
      return refuse(stream, STATUS.invalidArgument, `the request is not a valid message: ${(err as Error).message}`);
    }
    const reply = startReply(stream, route.method);
    if (route.method.responseStream) {
      (route.handler as StreamHandler)({ request, write: reply.write, end: () => reply.end(STATUS.ok) });
    } else {
      (route.handler as UnaryHandler)({ request }, (error, response) => {
        if (error || !response) return reply.end(STATUS.internal, error?.message ?? 'no response');
        reply.write(response);
        reply.end(STATUS.ok);
      });
    }
  });
}

/** The request's one message, its bytes bounded; a compressed or a second message is refused. */
function readRequest(stream: ServerHttp2Stream, then: (status: number, message: string, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let refused = false;
  stream.on('data', (chunk: Buffer) => {
    if (refused) return;
    bytes += chunk.length;
    if (bytes > MAX_REQUEST_BYTES + 5) {
      refused = true;
      then(STATUS.resourceExhausted, `the request is larger than ${MAX_REQUEST_BYTES} bytes`);
      return;
    }
    chunks.push(chunk);
  });
  stream.on('end', () => {
    if (refused) return;
    const body = Buffer.concat(chunks);
    if (body.length < 5) return then(STATUS.internal, 'the request has no message');
    if (body[0] !== 0) return then(STATUS.unimplemented, 'compressed messages are not supported');
    const length = body.readUInt32BE(1);
    if (body.length !== 5 + length) return then(STATUS.internal, 'the request is not exactly one message');
    then(STATUS.ok, '', body.subarray(5));
  });
}

/** The response: headers at the first message, each message framed, then the trailers with the status. */
function startReply(stream: ServerHttp2Stream, method: GrpcMethod) {
  let started = false;
  const open = () => !stream.destroyed && !stream.closed;
  const start = () => {
    if (started) return;
    started = true;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  };
  return {
    write: (message: object) => {
      if (!open()) return;
      start();
      const payload = method.responseSerialize(message);
      const frame = Buffer.allocUnsafe(5 + payload.length);
      frame[0] = 0;
      frame.writeUInt32BE(payload.length, 1);
      payload.copy(frame, 5);
      stream.write(frame);
    },
    end: (status: number, message = '') => {
      if (!open()) return;
      if (!started && status !== STATUS.ok) return refuse(stream, status, message);
      start();
      stream.once('wantTrailers', () => stream.sendTrailers(trailers(status, message)));
      stream.end();
    },
  };
}

/** A trailers-only answer: the status in the one header block. */
function refuse(stream: ServerHttp2Stream, status: number, message: string): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  stream.respond({ ':status': 200, 'content-type': 'application/grpc', ...trailers(status, message) }, { endStream: true });
}

const trailers = (status: number, message: string) => ({ 'grpc-status': String(status), ...(message && { 'grpc-message': encodeURIComponent(message) }) });
