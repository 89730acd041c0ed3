import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';

/**
 * What names one terraform run for the provider processes it starts (its plan walk and its apply
 * walk): the terraform process, told apart from every other process that ever had its id. A process
 * id alone repeats: over time, and across containers whose terraform is each pid 1 of its own PID
 * namespace while they share a temporary folder. So the id is joined with the process's start time
 * (clock ticks since boot), the PID namespace and the boot. Undefined where the system does not
 * tell these (outside Linux): no run then vouches for a read, and every apply reads afresh.
 */
export function terraformRun(pid: number, proc = '/proc'): string | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which may hold spaces and parentheses.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const namespace = readlinkSync(`${proc}/self/ns/pid`);
    const boot = readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim();
    if (!/^\d+$/.test(startTime ?? '') || !namespace || !boot) return undefined;
    return createHash('sha256').update(`cdktf-server-hosting/run\n${boot}\n${namespace}\n${pid}\n${startTime}`).digest('hex').slice(0, 24);
  } catch {
    return undefined;
  }
}
