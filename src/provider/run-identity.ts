import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { processStart } from '../contract/process-start';

/**
 * What names one terraform run for the provider processes it starts (its plan walk and its apply
 * walk): the terraform process, told apart from every other process that ever had its id. A process
 * id alone repeats: over time, and across containers whose terraform is each pid 1 of its own PID
 * namespace while they share a temporary folder. So the id is joined with the process's start time
 * and boot (contract/process-start.ts) and the PID namespace. Undefined where the system does not
 * tell these (outside Linux): no run then vouches for a read, and every apply reads afresh.
 */
export function terraformRun(pid: number, proc = '/proc'): string | undefined {
  try {
    const started = processStart(pid, proc);
    const namespace = readlinkSync(`${proc}/self/ns/pid`);
    if (!started || !namespace) return undefined;
    return createHash('sha256').update(`cdktf-server-hosting/run\n${namespace}\n${pid}\n${started}`).digest('hex').slice(0, 24);
  } catch {
    return undefined;
  }
}
