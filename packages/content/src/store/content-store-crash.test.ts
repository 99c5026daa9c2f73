import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectReceiptsOnDisk,
  type NodeRun,
  runNodeInPairs,
  writeStoreChild,
} from '../test/child-node.js';
import { readTextTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const folder = tempSpaces();

// The child opens the store from the built package, reads, saves three changes and is killed with
// SIGKILL (no clean-up of any kind) right after the named step.
const CHILD = (distUrl: string) => `
import { ContentStore } from ${JSON.stringify(distUrl)};
const [root, killAt, killIndex] = process.argv.slice(2);
const store = await ContentStore.open({
  root,
  hooks: {
    step(step, info) {
      if (step === killAt && String(info.index ?? 0) === killIndex) process.kill(process.pid, 'SIGKILL');
    },
  },
});
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
`;

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
        if (step === 'none') {
          expect(result.code, result.stderr).toBe(0);
          // Nothing reported saved is missing from disk.
          await expectReceiptsOnDisk(root, result.stdout, label);
        } else {
          expect(result.signal, `${label}: ${result.stderr}`).toBe('SIGKILL');
          expect(result.stdout, label).toBe('');
        }

        const store = await ContentStore.open({ root });
        const tree = await readTextTree(root, { withRepa: true });
        const visible = await readTextTree(root);
        expect(visible, label).toEqual(expected === 'new' ? NEW : OLD);
        expect(
          Object.keys(tree).filter((path) => path.includes('repa-tmp')),
          label,
        ).toEqual([]);
        const recoverable = await store.listRecoverable();
        const records = await readdir(join(root, '.repa/intents')).catch(() => []);
        expect(records, label).toEqual(expected === 'old+record' ? ['op-crash.json'] : []);
        expect(
          recoverable.map((entry) => entry.operationId),
          label,
        ).toEqual(expected === 'old+record' ? ['op-crash'] : []);
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
