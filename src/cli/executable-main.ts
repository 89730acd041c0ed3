import { getAsset } from 'node:sea';
import { CLI_ASSET } from './standalone-assets';
import { loadEmbeddedProvider, runEmbeddedProgram } from '../provider/plugin/embedded-program';
import { serveTerraform, startedByTerraform } from '../provider/plugin/serve';

/*
 * Entry point of the standalone executable (assets/standalone/standalone.js inside a Node single
 * executable): started by Terraform, it is the provider; run by hand, the package's command-line
 * tool, so a team with terraform and this one file has the simulator, adopt and the mirrors too.
 * The tool is a bundle of its own, an asset of the executable read only when run by hand: Terraform
 * starts the provider several times a run, and each start would otherwise parse the tool too
 * (measured to the handshake: 176 ms with the tool in the same bundle, 152 ms with it as an asset,
 * 156 ms for an executable without it).
 */

if (startedByTerraform(process.env)) {
  serveTerraform(loadEmbeddedProvider);
} else {
  runCommandLineTool();
}

/** Runs the tool's bundle as Node runs a CommonJS file; the executable's require serves it Node's own modules. */
function runCommandLineTool(): void {
  const tool = runEmbeddedProgram<{ main: (argv: readonly string[]) => Promise<number> }>(getAsset(CLI_ASSET, 'utf8'), CLI_ASSET);
  void tool.main(process.argv.slice(2)).then((code) => process.exit(code));
}
