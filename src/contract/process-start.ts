import { readFileSync } from 'node:fs';

/**
 * What tells a process from every other that ever had its id on this machine: the boot and its
 * start time (clock ticks since boot, field 22 of /proc/<pid>/stat, counted after the command
 * name, which may hold spaces and parentheses). Undefined where the system does not tell these
 * (outside Linux) or the process is gone: then nothing may be assumed of that pid.
 */
export function processStart(pid: number, proc = '/proc'): string | undefined {
  const startTime = statFields(pid, proc)?.[19];
  try {
    const boot = readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim();
    return /^\d+$/.test(startTime ?? '') && boot ? `${boot}/${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

/** The state letter of /proc/<pid>/stat (`R`, `S`, `T` stopped, `Z` a zombie…), or undefined where the system does not tell it. */
export function processState(pid: number, proc = '/proc'): string | undefined {
  return statFields(pid, proc)?.[0];
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number, proc: string): string[] | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
