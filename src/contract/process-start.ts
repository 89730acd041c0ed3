import { readFileSync } from 'node:fs';

/**
 * What tells a process from every other that ever had its id on this machine: the boot and its
 * start time (clock ticks since boot, field 22 of /proc/<pid>/stat, counted after the command
 * name, which may hold spaces and parentheses). Undefined where the system does not tell these
 * (outside Linux) or the process is gone: then nothing may be assumed of that pid.
 */
export function processStart(pid: number, proc = '/proc'): string | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim();
    return /^\d+$/.test(startTime ?? '') && boot ? `${boot}/${startTime}` : undefined;
  } catch {
    return undefined;
  }
}
