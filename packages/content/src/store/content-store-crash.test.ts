import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type NodeRun, runNodeInPairs, writeStoreChild } from '../test/child-node.js';
import { expectKilledSave, killedStoreChild } from '../test/killed-save.js';
import { tempSpaces } from '../test/temp-space.js';

const folder = tempSpaces();

// The child opens the store from the built package, reads, saves three changes and is killed with
// SIGKILL (no clean-up of any kind) right after the named step.
const CHILD = killedStoreChild(`
const a = await store.read('a.md');
const c = await store.read('c.md');
const receipts = await store.save(
  [
    { target: 'a.md', content: Buffer.from('new a\\n'), expectedVersion: a.version },
    { target: 'b/new.md', content: Buffer.from('new b\\n'), expectedVersion: null },
    { target: 'c.md', content: null, expectedVersion: c.version },
  ],
  { operationId: 'op-crash' },
);
process.stdout.write(JSON.stringify(receipts));
`);

const OLD = { 'a.md': 'old a\n', 'c.md': 'old c\n' };
const NEW = { 'a.md': 'new a\n', 'b/new.md': 'new b\n' };

/** [step, index, what restart must find]; `none` is the uninterrupted control run. */
const KILLS: [string, number, 'old' | 'old+record' | 'new'][] = [
  ['planned', 0, 'old'],
  ['intent-written', 0, 'old+record'],
  ['temp-written', 0, 'old+record'],
  ['checked', 0, 'old+record'],
  ['renamed', 0, 'new'],
  ['renamed', 1, 'new'],
  ['renamed', 2, 'new'],
  ['dirs-synced', 0, 'new'],
  ['index-written', 0, 'new'],
  ['done', 0, 'new'],
  ['none', 0, 'new'],
];

describe('ContentStore.save', () => {
  describe('killed with SIGKILL at each step (child process running dist/)', () => {
    it('leaves old or new bytes, finishes or keeps the intent on restart, and no temp files', async () => {
      const scriptDir = await folder();
      const script = join(scriptDir, 'child.mjs');
      const node = await writeStoreChild(script, CHILD);
      const cases = await Promise.all(KILLS.map(() => folder(OLD)));
      const results = await runNodeInPairs(
        node,
        script,
        KILLS.map(([step, at], index) => [cases[index] as string, step, String(at)]),
      );

      for (const [index, [step, at, expected]] of KILLS.entries()) {
        const label = `killed after ${step}#${at}`;
        const root = cases[index] as string;
        const result = results[index] as NodeRun;
        const { store, tree } = await expectKilledSave(
          root,
          { step, result, printed: result.stdout, label },
          {
            visible: expected === 'new' ? NEW : OLD,
            operationId: 'op-crash',
            recoverable: expected === 'old+record',
          },
        );
        if (expected === 'new') {
          const a = await store.read('a.md');
          const b = await store.read('b/new.md');
          expect(a.identity).not.toBe(b.identity);
          const index = JSON.parse(tree['.repa/identities.json'] as string) as {
            objects: Record<string, string>;
          };
          expect(Object.values(index.objects).sort(), label).toEqual(['a.md', 'b/new.md']);
        }
      }
    }, 180_000);
  });
});
