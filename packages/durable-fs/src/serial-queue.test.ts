import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('SerialQueue', () => {
  it('runs tasks of one key one at a time, in order, past a failed task', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run('k', async () => {
      log.push('a start');
      await first.opened;
      log.push('a end');
      throw new Error('a failed');
    });
    const b = queue.run('k', async () => {
      log.push('b');
      return 'b done';
    });
    await Promise.resolve();
    first.open();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('runs tasks of another key while one key is busy', async () => {
    const queue = new SerialQueue();
    const held = gate();
    const slow = queue.run('one', () => held.opened);
    await expect(queue.run('two', async () => 'other')).resolves.toBe('other');
    held.open();
    await slow;
  });
});
