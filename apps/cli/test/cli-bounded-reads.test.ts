import {
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { repa, repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// Spec R74 through the built daemon: a read whose size the space controls is refused from its size
// before a byte is read, and one within the limit never holds the daemon's event loop, so other
// clients are answered while it is served. Timings are in the bench (space bounds), never here.

const sandbox = useDaemon();
const MiB = 1024 * 1024;

/** Whether process `pid` has `file` open now. */
function holdsOpen(pid: number, file: string): boolean {
  const fds = `/proc/${pid}/fd`;
  return readdirSync(fds).some((fd) => {
    try {
      return readlinkSync(join(fds, fd)) === file;
    } catch {
      return false; // closed meanwhile
    }
  });
}

/** Resolves once `condition` holds, looking every millisecond. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(1);
}

describe('a 200 MiB one-line note read through the page (files.read)', () => {
  it('answers a request sent after the daemon read and hashed the note before the read itself', async () => {
    const note = join(sandbox.space, 'notes', 'huge.md');
    writeFileSync(note, Buffer.alloc(200 * MiB, 'word '));
    // One connection: the daemon's answers arrive in the order it wrote them.
    const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    await client.connect();
    try {
      // Both methods loaded once, so the second answer waits on nothing but the daemon.
      await client.request('files.list', { space: sandbox.space });
      await client.request('files.read', { space: sandbox.space, path: 'notes/a.md' });
      const pid = Number(readFileSync(join(sandbox.appDir, 'run', 'daemon.pid'), 'utf8'));
      const order: string[] = [];
      let answered = false;
      const read = client.request('files.read', { space: sandbox.space, path: 'notes/huge.md' });
      void read.finally(() => {
        answered = true;
        order.push('huge note');
      });
      // The daemon closes the note once its bytes are read and hashed: what is left is its text.
      await until(() => answered || holdsOpen(pid, note));
      await until(() => answered || !holdsOpen(pid, note));
      await client.request('files.list', { space: sandbox.space, path: 'notes' });
      order.push('listing');
      const text = await read;
      expect(order).toEqual(['listing', 'huge note']);
      expect(text).toMatchObject({ bytes: 200 * MiB, lines: 1, truncated: true });
      expect(text.text).toBe('word '.repeat(200_000));
    } finally {
      await client.close();
      rmSync(note);
    }
  });
});

describe('a learning context whose source is a sparse 1 TiB file', () => {
  it('refuses the source from its size with file_too_large, and shows a recorded source grown to 1 TiB as changed', async () => {
    const space = join(sandbox.root, 'sparse');
    writeFiles(space, { 'notes.md': '# Tides\n', 'huge.md': '' });
    truncateSync(join(space, 'huge.md'), 2 ** 40);
    const refused = await repa(
      sandbox,
      ['context', 'set', '--body', 'Tides.', '--source', 'huge.md'],
      { cwd: space },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '"huge.md" is 1099511627776 bytes, over the limit of 268435456 bytes',
    );
    expect(refused.stderr).toContain('(file_too_large)');
    const set = await repa(
      sandbox,
      ['context', 'set', '--body', 'Tides.', '--source', 'notes.md'],
      {
        cwd: space,
      },
    );
    expect(set.code, set.stderr).toBe(0);
    truncateSync(join(space, 'notes.md'), 2 ** 40);
    const shown = await repaJson<{ learningContext: { sourceStates: { state: string }[] } }>(
      sandbox,
      ['context', 'show'],
      { cwd: space },
    );
    expect(shown.json.learningContext.sourceStates).toEqual([
      expect.objectContaining({ path: 'notes.md', state: 'changed' }),
    ]);
  });
});
