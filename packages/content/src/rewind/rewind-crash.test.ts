import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { type NodeRun, runNodeInPairs, writeStoreChild } from '../test/child-node.js';
import { readTextTree, removeAll, tempSpace } from '../test/temp-space.js';
import { rewindGroup } from './rewind-group.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

// The child opens the store from the built package and rewinds the run `op`, killed with SIGKILL
// (no clean-up of any kind) right after the named step of the rewind's save `undo-<save>`.
const CHILD = (distUrl: string) => `
import { ContentStore, rewindGroup } from ${JSON.stringify(distUrl)};
const [root, killAt, killSave, killIndex] = process.argv.slice(2);
const store = await ContentStore.open({
  root,
  hooks: {
    step(step, info) {
      if (
        step === killAt &&
        info.operationId === 'undo-' + killSave &&
        String(info.index ?? 0) === killIndex
      ) process.kill(process.pid, 'SIGKILL');
    },
  },
});
const result = await rewindGroup(store, 'op', { rewindId: 'undo' });
process.stdout.write(JSON.stringify(result.files.map((file) => file.status)));
`;

const BEFORE = { 'a.md': 'a before\n', 'old/b.md': 'b before\n' };
const RUN = { 'a.md': 'a by the run\n', 'new/b.md': 'b moved by the run\n', 'c.md': 'c new\n' };

/** A space where the run `op` edited a.md, moved old/b.md to new/b.md and created c.md. */
async function spaceAfterRun(): Promise<string> {
  const root = await tempSpace(BEFORE);
  const store = await ContentStore.open({ root, hooks: {} });
  const a = await store.read('a.md');
  const b = await store.read('old/b.md');
  await store.save(
    [{ target: 'a.md', content: Buffer.from(RUN['a.md']), expectedVersion: a.version }],
    {
      operationId: 'op-1',
    },
  );
  await store.save(
    [
      { target: 'old/b.md', content: null, expectedVersion: b.version },
      {
        target: 'new/b.md',
        content: Buffer.from(RUN['new/b.md']),
        expectedVersion: null,
        identityFrom: 'old/b.md',
      },
    ],
    { operationId: 'op-2' },
  );
  await store.save([{ target: 'c.md', content: Buffer.from(RUN['c.md']), expectedVersion: null }], {
    operationId: 'op-3',
  });
  return root;
}

// The rewind saves a.md (undo-1), c.md (undo-2, a removal), the move back (undo-3, two changes):
// the move at every step where the disk differs (before the intent, between the two renames, after
// the record), the single changes where keeping and recording the history happen.
const KILLS: [string, number, number][] = [
  ['intent-written', 3, 0],
  ['temp-written', 3, 0],
  ['kept', 3, 0],
  ['renamed', 3, 0],
  ['renamed', 3, 1],
  ['recorded', 3, 0],
  ['dirs-synced', 3, 0],
  ['done', 3, 0],
  ['kept', 1, 0],
  ['recorded', 1, 0],
  ['renamed', 2, 0],
];

describe('rewindGroup killed with SIGKILL at each step (child process running dist/)', () => {
  it('leaves every file whole (the run’s bytes or the old ones), recovers, and finishes when asked again', async () => {
    const scriptDir = await tempSpace();
    dirs.push(scriptDir);
    const script = join(scriptDir, 'child.mjs');
    const node = await writeStoreChild(script, CHILD);
    const cases = await Promise.all(KILLS.map(() => spaceAfterRun()));
    dirs.push(...cases);
    const results = await runNodeInPairs(
      node,
      script,
      KILLS.map(([step, save, at], index) => [
        cases[index] as string,
        step,
        String(save),
        String(at),
      ]),
    );
    for (const [index, [step, save, at]] of KILLS.entries()) {
      const label = `killed after ${step}#${at} of undo-${save}`;
      const root = cases[index] as string;
      const result = results[index] as NodeRun;
      expect(result.signal, `${label}: ${result.stderr}`).toBe('SIGKILL');
      // Recovery on open: every file is whole, the run's version or the one before it.
      const store = await ContentStore.open({ root });
      const tree = await readTextTree(root);
      expect(tree['a.md'], label).toMatch(/^a (before|by the run)\n$/u);
      const moved = [tree['old/b.md'], tree['new/b.md']];
      expect(
        [
          [BEFORE['old/b.md'], undefined],
          [undefined, RUN['new/b.md']],
        ],
        label,
      ).toContainEqual(moved);
      expect(
        Object.keys(tree).filter((path) => path.includes('repa-tmp')),
        label,
      ).toEqual([]);
      // A save killed before its first rename is kept recoverable (nothing of it on disk).
      const recoverable = (await store.listRecoverable()).map((intent) => intent.operationId);
      expect(
        recoverable.every((id) => id === `undo-${save}`),
        label,
      ).toBe(true);
      for (const id of recoverable) await store.discardRecoverable(id);
      // Asked again, the rewind finishes what the killed one did not.
      const again = await rewindGroup(store, 'op', { rewindId: 'undo-again' });
      expect(
        again.files.every((file) => file.status !== 'refused'),
        label,
      ).toBe(true);
      expect(await readTextTree(root), label).toEqual(BEFORE);
      expect((await readdir(join(root, '.repa/intents')).catch(() => [])).length, label).toBe(0);
    }
  }, 240_000);
});
