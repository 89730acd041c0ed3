/*
 * The package's one program bundle, assets/standalone/cli.js: the command-line tool (the package's
 * command runs `main`; so does the standalone executable, where the bundle is an asset read only when
 * run by hand) and the simulator (the package's `./simulator` subpath). Everything that needs
 * undici, zod or openpgp is in here, so the library the jsii runtime loads needs none of them.
 */
export { main } from './main';
export * from '../simulator';
