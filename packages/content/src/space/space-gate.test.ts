// Spec R74: Repa's own reads of a space never run beside a command in it.
import { realpathSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { holdSpace } from './space-gate.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

/** A hold that lasts until `release` is called; `taken` settles once it is held. */
function heldUntilReleased(
  root: string,
  mode: 'shared' | 'exclusive',
  order: string[],
  name: string,
) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const done = holdSpace(root, mode, async () => {
    order.push(`${name} in`);
    await released;
    order.push(`${name} out`);
  });
  return { release, done };
}

describe('holdSpace', () => {
  it('lets a waiting command go before reads that come after it, and reads wait for it', async () => {
    const root = realpathSync(await tempSpace());
    dirs.push(root);
    const order: string[] = [];
    const first = heldUntilReleased(root, 'shared', order, 'read 1');
    const command = heldUntilReleased(root, 'exclusive', order, 'command');
    const second = heldUntilReleased(root, 'shared', order, 'read 2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['read 1 in']);
    first.release();
    await first.done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['read 1 in', 'read 1 out', 'command in']);
    command.release();
    await command.done;
    second.release();
    await second.done;
    expect(order).toEqual([
      'read 1 in',
      'read 1 out',
      'command in',
      'command out',
      'read 2 in',
      'read 2 out',
    ]);
  });

  it('lets the store and the observer read inside a command’s hold (no deadlock)', async () => {
    const root = realpathSync(await tempSpace({ 'a.md': 'one\n' }));
    dirs.push(root);
    const { store, observer, observe } = await openTools(root);
    await observe('a.md');
    const report = await holdSpace(root, 'exclusive', async () => {
      await store.read('a.md');
      return observer.checkChangesByCommand();
    });
    expect(report.changes).toEqual([]);
  });

  it('runs a grep only after a command’s hold ends, and cancels one waiting for it', async () => {
    const root = realpathSync(await tempSpace({ 'a.md': 'needle\n' }));
    dirs.push(root);
    const { call } = await openTools(root);
    const order: string[] = [];
    const command = heldUntilReleased(root, 'exclusive', order, 'command');
    const abort = new AbortController();
    const cancelled = call('grep', { pattern: 'needle' }, abort.signal);
    const waiting = call('grep', { pattern: 'needle' });
    abort.abort();
    expect((await repaErrorOf(cancelled)).code).toBe('cancelled');
    // A grep that did not wait would end now, and find a.md.
    await Promise.race([waiting, sleep(200)]);
    await rename(join(root, 'a.md'), join(root, 'b.md'));
    command.release();
    await command.done;
    const text = textOf(await waiting);
    expect(text).toContain('b.md:1: needle');
    expect(text).not.toContain('a.md');
  });
});
