import { createServerCertificate } from './certificate';
import { startCpuProfile } from './cpu-profile';
import { createGrpcServer, type GrpcServer, type ServiceDefinition, type ServiceImplementation, type UnaryCall, type UnaryCallback } from './grpc-server';
import { CONTROLLER_SERVICE, PROVIDER_SERVICE } from './protocol';
import type { ProviderEnvironment } from '../configure';
import { terraformRun } from '../run-identity';
import { createRunNotes } from '../run-notes';

/*
 * The provider as Terraform starts it through go-plugin: serve gRPC over mutual TLS on loopback,
 * print the one handshake line on stdout, log to stderr, and exit on Shutdown or when Terraform
 * goes away. Never reads stdin: go-plugin hands the plugin Terraform's own.
 */

const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
const MAGIC_COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';

/** go-plugin's magic cookie: set only when Terraform starts the plugin. */
export const startedByTerraform = (env: NodeJS.ProcessEnv) => env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE;

export function serveTerraform(): void {
  const clientCert = process.env.PLUGIN_CLIENT_CERT;
  if (!clientCert) {
    process.stderr.write('PLUGIN_CLIENT_CERT is not set: this provider only serves Terraform over mutual TLS.\n');
    process.exit(1);
  }
  // SIGINT reaches the whole process group on Ctrl-C; Terraform asks for a stop through StopProvider.
  process.on('SIGINT', () => undefined);

  const certificate = createServerCertificate();
  // go-plugin files a line by its level prefix: TF_LOG=INFO (or TF_LOG_PROVIDER=INFO) shows these.
  const log = (line: string) => process.stderr.write(`[INFO] ${line}\n`);
  // Terraform is this process's parent: its plan and its apply share the notes (run-notes.ts).
  const notes = createRunNotes({ run: terraformRun(process.ppid), log });
  const writeProfile = startCpuProfile();
  // Set below: Shutdown, the one caller, comes over the server's own connection.
  let server: GrpcServer | undefined;
  const shutdown = () => {
    notes.flush();
    // Terraform closes the connection after Shutdown; a connection left open does not hold the process.
    const exit = () => {
      setTimeout(() => process.exit(0), 1_000).unref();
      server!.shutdown(() => process.exit(0));
    };
    if (writeProfile) writeProfile(exit);
    else exit();
  };
  server = createGrpcServer({ certPem: certificate.certPem, keyPem: certificate.keyPem, clientCertPem: clientCert }, [
    [PROVIDER_SERVICE, loadedAtFirstCall(PROVIDER_SERVICE, { env: process.env, log, notes })],
    [CONTROLLER_SERVICE, controllerService(shutdown)],
  ]);
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
 * The provider's RPCs, loaded when Terraform makes the first: the handshake line waits only for the
 * gRPC server, not for the resources, the API client and their libraries (undici, zod, msgpack),
 * which a process that only answers a schema request never needs in full.
 */
function loadedAtFirstCall(definition: ServiceDefinition, environment: ProviderEnvironment): ServiceImplementation {
  let service: ServiceImplementation | undefined;
  const load = () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a require the bundler defers to the first call
    service ??= (require('./provider-server') as typeof import('./provider-server')).createProviderService(environment);
    return service;
  };
  type Handler = (...args: unknown[]) => unknown;
  return Object.fromEntries(Object.keys(definition).map((name) => [name, (...args: unknown[]) => (load()[name] as Handler)(...args)]));
}

/** go-plugin's controller: Shutdown answers, then the process ends. */
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
