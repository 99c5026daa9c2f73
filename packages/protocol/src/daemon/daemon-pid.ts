import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The pid in a pid file (`daemon.pid`, or a lock file in the same format); undefined when unreadable. */
export async function readPidFile(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process with `pid` runs (one of another user counts: signalling it is refused). A
 * zombie does not: it has exited and only waits for its parent — often a container's init that
 * reaps every second or two — to collect it.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** Whether Linux reports `pid` as exited but not yet reaped (false where /proc cannot tell). */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": the state follows the last ')' (comm may itself hold parentheses).
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
