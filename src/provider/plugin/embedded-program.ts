import { runInThisContext } from 'node:vm';
import type { LoadedProvider, ProviderProgram, ProviderStart } from './provider-server';

/*
 * A program bundled inside another, as its text: V8 compiles it only when it runs. A provider
 * process must print its handshake line fast, and compiling the whole provider first took some
 * 14 ms of that; embedded as a string, it costs a scan of the literal instead. The text is the
 * bundler's own output, written into the same file as JSON (it cannot end the literal), so it is
 * exactly as trusted as the file that carries it.
 */

/** Runs a CommonJS bundle's text as Node runs a file, and returns its exports. */
export function runEmbeddedProgram<Exports>(source: string, filename: string): Exports {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const module = { exports: {} as Exports };
  (runInThisContext(wrapped, { filename }) as (...args: unknown[]) => void)(module.exports, require, module, filename, '.');
  return module.exports;
}

/** The provider's RPC program (src/provider/plugin/provider-server.ts, bundled), which the bundler writes into the handshake's. */
declare const PROVIDER_RPC_PROGRAM: string;

/** The provider behind the handshake, compiled now: each entry's `loadProvider` (serve.ts). */
export function loadEmbeddedProvider(start: ProviderStart): LoadedProvider {
  return runEmbeddedProgram<ProviderProgram>(PROVIDER_RPC_PROGRAM, 'provider-rpc.js').startProvider(start);
}
