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

/** Whether a process with `pid` exists (one of another user counts: signalling it is refused). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
