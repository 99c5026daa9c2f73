import { createHook } from 'node:async_hooks';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { acquireFileLock, type FileLockOptions } from './file-lock.js';

const options: FileLockOptions = {
  staleMs: 10_000,
  busy: (cause) => new RepaError('busy', 'still locked', { cause }),
  lost: (why) => new RepaError('busy', `lost: ${why}`),
};

function target(): string {
  return join(mkdtempSync(join(tmpdir(), 'repa-lock-')), 'settings.json');
}

describe('acquireFileLock', () => {
  it('holds <path>.lock until released, then another holder can take it', async () => {
    const path = target();
    const held = await acquireFileLock(path, options);
    await held.assertHeld();
    await held.release();
    const again = await acquireFileLock(path, options);
    await again.assertHeld();
    await again.release();
  });

  it('takes and releases a free lock with no request through the thread pool', async () => {
    const path = target();
    let requests = 0;
    const hook = createHook({
      init(_id, type) {
        if (type.startsWith('FSREQ')) requests += 1;
      },
    }).enable();
    try {
      const held = await acquireFileLock(path, options);
      await held.assertHeld();
      await held.release();
    } finally {
      hook.disable();
    }
    expect(requests).toBe(0);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('marks <path>.wanted while another holder waits, so the holder knows, and removes it once taken', async () => {
    const path = target();
    const held = await acquireFileLock(path, options);
    expect(held.wanted()).toBe(false);
    const waiting = acquireFileLock(path, options);
    for (let tries = 0; tries < 200 && !held.wanted(); tries++) {
      await new Promise((done) => setTimeout(done, 5));
    }
    expect(held.wanted()).toBe(true);
    await held.release();
    const next = await waiting;
    await next.assertHeld();
    expect(existsSync(`${path}.wanted`)).toBe(false);
    expect(next.wanted()).toBe(false);
    await next.release();
  });

  it('removes a mark a killed waiter left behind when it releases', async () => {
    const path = target();
    writeFileSync(`${path}.wanted`, '');
    const held = await acquireFileLock(path, options);
    expect(held.wanted()).toBe(true);
    await held.release();
    expect(existsSync(`${path}.wanted`)).toBe(false);
  });

  it('refuses with the lost error when its folder was removed, and then releases nothing', async () => {
    const path = target();
    const held = await acquireFileLock(path, options);
    rmSync(`${path}.lock`, { recursive: true });
    expect((await repaErrorOf(held.assertHeld())).message).toBe(
      'lost: its lock folder was removed',
    );
    await held.release();
  });

  it('refuses with the lost error when another process took it over, and leaves that lock', async () => {
    const path = target();
    const held = await acquireFileLock(path, options);
    rmSync(`${path}.lock`, { recursive: true });
    mkdirSync(`${path}.lock`);
    expect((await repaErrorOf(held.assertHeld())).message).toBe(
      'lost: another process took it over',
    );
    await held.release();
    expect(() => mkdirSync(`${path}.lock`)).toThrow(/EEXIST/);
  });

  it('refuses with the lost error when it was not refreshed within 3/4 of the stale time', async () => {
    const path = target();
    const held = await acquireFileLock(path, options);
    const old = new Date(Date.now() - 8_000);
    utimesSync(`${path}.lock`, old, old);
    expect((await repaErrorOf(held.assertHeld())).message).toBe(
      'lost: this process stalled longer than the lock stays fresh',
    );
    await held.release();
  });
});
