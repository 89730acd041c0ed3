import { runHandler } from './run-handler';

// Entry point of the bundled handler (assets/handler/index.js).
runHandler(process.argv.slice(2), process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: unexpected failure: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
