import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time a process has used so far, in milliseconds: the sum over its threads of the time the
 * scheduler ran each (/proc/<pid>/task/<tid>/schedstat, first field, nanoseconds), finer than
 * /proc/<pid>/stat's utime + stime (clock ticks of 10 ms). A thread that has ended no longer
 * counts; node and workerd keep theirs for the process's life.
 */
export function processCpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanoseconds / 1e6;
}

/** The parent pid and the command name of a process, from /proc/<pid>/stat (the name may hold spaces and parentheses). */
function statOf(pid: string): { ppid: number; comm: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const end = stat.lastIndexOf(')');
    return { comm: stat.slice(stat.indexOf('(') + 1, end), ppid: Number(stat.slice(end + 2).split(' ')[1]) };
  } catch {
    return undefined;
  }
}

/** The first descendant of `pid` (children, grandchildren, …) whose command name is `comm`, such as wrangler's `workerd`. */
export function descendantNamed(pid: number, comm: string): number | undefined {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => ({ pid: Number(name), ...statOf(name) }));
  const family = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all)
      if (entry.ppid !== undefined && family.has(entry.ppid) && !family.has(entry.pid)) {
        if (entry.comm === comm) return entry.pid;
        family.add(entry.pid);
        grew = true;
      }
  }
  return undefined;
}
