import { readdir, readFile } from 'node:fs/promises';

/** Sends `signal` to `pid`, unless it is gone already. */
export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Every process below `root` (not `root` itself), from `/proc`, with its command name. */
export async function descendants(root: number): Promise<{ pid: number; name: string }[]> {
  const children = new Map<number, { pid: number; name: string }[]>();
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        try {
          const stat = await readFile(`/proc/${name}/stat`, 'utf8');
          const open = stat.indexOf('(');
          const close = stat.lastIndexOf(')');
          const ppid = Number(stat.slice(close + 2).split(' ')[1]);
          const entry = { pid: Number(name), name: stat.slice(open + 1, close) };
          const list = children.get(ppid) ?? [];
          list.push(entry);
          children.set(ppid, list);
        } catch {
          // Gone meanwhile.
        }
      }),
  );
  const found: { pid: number; name: string }[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}
