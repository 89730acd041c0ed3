import { processStart, processState } from '../contract/process-start';

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
  return pollUntilGone(() => running(parent), onGone, intervalMs);
}

/** Calls `onGone` once `stillThere` says no, checking every `intervalMs`; returns what stops it. */
function pollUntilGone(stillThere: () => boolean, onGone: () => void, intervalMs: number): () => void {
  const timer = setInterval(() => {
    if (stillThere()) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function running(parent: number): boolean {
  return process.ppid === parent && alive(parent);
}

/** Whether a process of this id runs (another user's counts); a zombie (ended, not yet reaped by a parent that does not reap) has ended. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processState(pid) !== 'Z';
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

/**
 * Calls `onGone` once process `pid` has ended (`simulator --owner`: a CI job's shell, killed with
 * everything it started but a detached simulator). Its start time, where the system tells it, tells
 * it from a later process given the same id. Does not keep the process alive.
 */
export function watchProcess(pid: number, onGone: () => void, intervalMs = 250): void {
  const started = processStart(pid);
  pollUntilGone(() => alive(pid) && processStart(pid) === started, onGone, intervalMs);
}
