/*
 * The Python console script of the wheel (jsii's `invokeBinScript`) runs this command as its child
 * and waits for it: a `kill` of the script ends Python alone, and the child would keep running,
 * re-parented. jsii's Python runtime names itself in JSII_AGENT, which reaches the command through
 * the runtime's environment; started so, the command ends when its parent does.
 */

/** Whether the wheel's console script started this command. */
const startedByPythonCommand = (env: NodeJS.ProcessEnv = process.env): boolean => /^Python\//.test(env.JSII_AGENT ?? '');

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
 * Under the wheel's console script, the command ends with it, as if sent SIGTERM: a command that
 * listens for SIGTERM (the simulator) closes cleanly, any other exits.
 */
export function endWithPythonCommand(): void {
  if (!startedByPythonCommand()) return;
  watchParent(() => {
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM', 'SIGTERM');
    else process.exit(143);
  });
}
