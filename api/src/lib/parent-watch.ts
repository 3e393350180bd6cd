/**
^ * EXIT_WITH_PARENT, read: which process the app must not outlive. A pid (the harness's own) is watched as
 * given; "1" means the parent at the time of reading (older harnesses); anything else turns the watch off.
 *
 * @example
 * const pid = parentToWatch(process.env.EXIT_WITH_PARENT); // 4242, or null
 * if (pid !== null && !processAlive(pid)) process.exit(1);
 */
export function parentToWatch(value: string | undefined): number | null {
  if (value === "1") return process.ppid > 1 ? process.ppid : null;
  const pid = Number(value);
  return Number.isInteger(pid) && pid > 1 ? pid : null;
}

/** Whether a process with this pid exists (signal 0 checks without sending; EPERM means it exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
