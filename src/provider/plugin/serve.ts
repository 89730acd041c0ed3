import { createServerCertificate } from './certificate';
import { createGrpcServer, routesOf, type GrpcServer, type Router, type ServiceDefinition, type ServiceImplementation, type UnaryCall, type UnaryCallback } from './grpc-server';
import type { LoadedProvider, ProviderStart } from './provider-server';

/*
 * The provider as Terraform starts it through go-plugin: serve gRPC over mutual TLS on loopback,
 * print the one handshake line on stdout, log to stderr, and exit on Shutdown or when Terraform
 * goes away. Never reads stdin: go-plugin hands the plugin Terraform's own.
 *
 * Only what the handshake needs runs before it: the certificate and the gRPC server. The provider
 * itself (its RPCs, the API client and their libraries) is loaded at Terraform's
 * first RPC, by `loadProvider`, which the entry gives: the bundles compile it only then.
 */

const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
const MAGIC_COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';

/** go-plugin's magic cookie: set only when Terraform starts the plugin. */
export const startedByTerraform = (env: NodeJS.ProcessEnv) => env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE;

export function serveTerraform(loadProvider: (start: ProviderStart) => LoadedProvider): void {
  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  if (!clientCert) {
    process.stderr.write('PLUGIN_CLIENT_CERT is not set: this provider only serves Terraform over mutual TLS.\n');
    process.exit(1);
  }
  // SIGINT reaches the whole process group on Ctrl-C, and a CI job cancelled sends SIGTERM to the
  // group: Terraform stops gracefully on either, asking through StopProvider, then ends each
  // provider with Shutdown (and goes on to a `terraform test`'s teardown). A provider the signal
  // ended mid-RPC would defeat that ("Plugin did not respond"); one gone with its Terraform ends anyway.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);

  const certificate = createServerCertificate();
  // go-plugin files a line by its level prefix: TF_LOG=INFO (or TF_LOG_PROVIDER=INFO) shows these.
  const log = (line: string) => process.stderr.write(`[INFO] ${line}\n`);
  let provider: LoadedProvider | undefined;
  // Set below: Shutdown, the one caller, comes over the server's own connection.
  let server: GrpcServer | undefined;
  const shutdown = () => {
    provider?.close();
    // Terraform closes the connection after Shutdown; a connection left open does not hold the process.
    setTimeout(() => process.exit(0), 1_000).unref();
    server!.shutdown(() => process.exit(0));
  };
  const controller = routesOf([[CONTROLLER_SERVICE, controllerService(shutdown)]]);
  const route: Router = (path) => controller(path) ?? (provider ??= loadProvider({ env: process.env, log })).route(path);
  server = createGrpcServer({ certPem: certificate.certPem, keyPem: certificate.keyPem, clientCertPem: clientCert }, route);
  server.listen().then((port) => {
    const cert = certificate.der.toString('base64').replace(/=+$/, '');
    process.stdout.write(`1|6|tcp|127.0.0.1:${port}|grpc|${cert}\n`);
  }, (err: Error) => {
    process.stderr.write(`the provider could not listen on 127.0.0.1: ${err.message}\n`);
    process.exit(1);
  });
  // Terraform gone (killed, say) without a Shutdown: do not linger. On Windows a process keeps its
  // parent's id after the parent ends, so there the parent is looked for as well.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent || !isRunning(parent)) process.exit(0);
  }, 1_000).unref();
}

/**
 * go-plugin's controller (plugin.GRPCController): Terraform ends every provider process with
 * Shutdown. Its request and answer are plugin.Empty, which is no bytes on the wire, so the
 * handshake's program needs no protocol library.
 */
const CONTROLLER_SERVICE: ServiceDefinition = {
  Shutdown: { path: '/plugin.GRPCController/Shutdown', responseStream: false, requestDeserialize: () => ({}), responseSerialize: () => Buffer.alloc(0) },
};

/** Shutdown answers, then the process ends. */
function controllerService(shutdown: () => void): ServiceImplementation {
  return {
    Shutdown: (_call: UnaryCall, callback: UnaryCallback) => {
      callback(null, {});
      setImmediate(shutdown);
    },
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
