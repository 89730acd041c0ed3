/*
 * A command started through a launcher ends when the launcher does. The Python console script of
 * the wheel (scripts/python-console-script.py) runs this command as its child and waits for it: a
 * `kill` of the script ends Python alone. npx runs it under `sh -c`: a `kill $!` of npx ends the
 * shell alone. Either way the command would keep running, re-parented (a simulator keeping its
 * port). The console script says so in CDKTF_SERVER_HOSTING_LAUNCHER (jsii's own script, in
 * JSII_AGENT); npm names `npx` (npm exec) in npm_command.
 */

/** The variables by which a launcher is known; `simulator start` keeps them from its detached child. */
export const LAUNCHER_VARIABLES = ['CDKTF_SERVER_HOSTING_LAUNCHER', 'JSII_AGENT', 'npm_command'];

/** Whether the wheel's console script or npx started this command. */
const startedByLauncher = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.CDKTF_SERVER_HOSTING_LAUNCHER === 'python' || /^Python\//.test(env.JSII_AGENT ?? '') || env.npm_command === 'exec';

/**
 * Calls `onGone` once the process that started this one has ended: re-parented (POSIX), or no
 * longer running (Windows, where a child keeps its parent's id). Does not keep the process alive.
 * Returns a function that stops watching.
 */
export function watchParent(onGone: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (running(parent)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function running(parent: number): boolean {
  if (process.ppid !== parent) return false;
  try {
    process.kill(parent, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Under a launcher (the wheel's console script, npx), the command ends with it, as if sent
 * SIGTERM: a command that listens for SIGTERM (the simulator) closes cleanly, any other exits.
 */
export function endWithLauncher(env: NodeJS.ProcessEnv = process.env): void {
  if (!startedByLauncher(env)) return;
  watchParent(() => {
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM', 'SIGTERM');
    else process.exit(143);
  });
}
