import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { kill } from './processes.js';

/** A pids cgroup (v1 or v2) limiting one command's processes; needed when running as root. */
export interface PidsGroup {
  procs: string;
  folder: string;
}

const CGROUP_ROOTS = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup', '/sys/fs/cgroup/unified'];

/** Removes the empty groups a killed daemon left in `root` (rmdir refuses a group in use). */
async function removeStaleGroups(root: string): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const owner = /^repa-bash-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid) continue;
    try {
      process.kill(Number(owner), 0);
    } catch {
      await rmdir(join(root, name)).catch(() => undefined);
    }
  }
}

/** A new pids group allowing `maxProcesses` processes, in the first hierarchy that takes one. */
export async function createPidsGroup(maxProcesses: number): Promise<PidsGroup | undefined> {
  const name = `repa-bash-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  for (const root of CGROUP_ROOTS) {
    try {
      await removeStaleGroups(root);
      const v2 = root !== CGROUP_ROOTS[0];
      if (v2) {
        const controllers = await readFile(join(root, 'cgroup.controllers'), 'utf8');
        if (!controllers.split(/\s+/).includes('pids')) continue;
        const enabled = await readFile(join(root, 'cgroup.subtree_control'), 'utf8');
        if (!enabled.split(/\s+/).includes('pids')) {
          await writeFile(join(root, 'cgroup.subtree_control'), '+pids');
        }
      }
      const folder = join(root, name);
      await mkdir(folder);
      try {
        await writeFile(join(folder, 'pids.max'), String(maxProcesses));
        return { procs: join(folder, 'cgroup.procs'), folder };
      } catch {
        await rmdir(folder).catch(() => undefined);
      }
    } catch {
      // Not this hierarchy.
    }
  }
  return undefined;
}

/** Kills what is left in `group` and removes it. */
export async function removePidsGroup(group: PidsGroup): Promise<void> {
  // The kernel lets the group go once its last process is reaped.
  for (let attempt = 0; attempt < 50; attempt++) {
    const pids = await groupPids(group);
    for (const pid of pids) kill(pid, 'SIGKILL');
    try {
      await rmdir(group.folder);
      return;
    } catch {
      await sleep(20);
    }
  }
}

/** The processes in `group` now. */
export async function groupPids(group: PidsGroup): Promise<number[]> {
  try {
    const text = await readFile(group.procs, 'utf8');
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}
