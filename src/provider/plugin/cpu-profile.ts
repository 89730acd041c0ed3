import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/** The variable that asks the provider for a CPU profile of its process: a folder to write it into. */
export const CPU_PROFILE_VARIABLE = 'HOSTING_PROVIDER_CPU_PROFILE_DIR';

/**
 * A CPU profile of this provider process, from inside it: Node refuses `--cpu-prof` in
 * NODE_OPTIONS where Terraform starts the plugin, so the inspector's Profiler is started here when
 * the variable names a folder, and `provider-<pid>.cpuprofile` (Chrome DevTools' format) is written
 * there when the process shuts down, with `provider-<pid>.usage.json`: the process's CPU in all. Returns what writes it and then goes on; nothing when not asked.
 */
export function startCpuProfile(env: NodeJS.ProcessEnv = process.env): ((then: () => void) => void) | undefined {
  const dir = env[CPU_PROFILE_VARIABLE];
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  return (then) => {
    session.post('Profiler.stop', (err, result) => {
      try {
        if (!err) writeFileSync(join(dir, `provider-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
        // The whole process's CPU (every thread: the compiler, the collector, TLS), beside the main thread's samples.
        writeFileSync(join(dir, `provider-${process.pid}.usage.json`), JSON.stringify({ cpu: process.cpuUsage(), uptimeSeconds: process.uptime() }));
      } finally {
        session.disconnect();
        then();
      }
    });
  };
}
