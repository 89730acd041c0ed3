import { runHandler } from './run-handler';

// Entry point of the bundled handler (assets/handler/index.js). runHandler reports every failure
// itself, through the same token filter as every other line, and resolves with the exit code.
void runHandler(process.argv.slice(2), process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
