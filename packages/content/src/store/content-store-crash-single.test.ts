import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type NodeRun, runNodeInPairs, writeStoreChild } from '../test/child-node.js';
import { expectKilledSave, killedStoreChild } from '../test/killed-save.js';
import { tempSpaces } from '../test/temp-space.js';

const folder = tempSpaces();

// A save of one change takes the short protocol (its intent record is not fsynced, the identity
// index's folder fsync runs beside the temp file's). The child reads `a.md` (a new identity),
// saves one change and is killed with SIGKILL right after the named step; it prints the identity
// it read before saving, so restart can check that an identity once shown survives.
const CHILD = killedStoreChild(`
const [kind] = args;
const a = await store.read('a.md');
process.stdout.write(a.identity + '\\n');
const change =
  kind === 'overwrite'
    ? { target: 'a.md', content: Buffer.from('new a\\n'), expectedVersion: a.version }
    : kind === 'delete'
      ? { target: 'a.md', content: null, expectedVersion: a.version }
      : { target: 'b/new.md', content: Buffer.from('new b\\n'), expectedVersion: null };
const receipts = await store.save([change], { operationId: 'op-single' });
process.stdout.write(JSON.stringify(receipts));
`);

const OLD = { 'a.md': 'old a\n' };
const NEW = {
  overwrite: { 'a.md': 'new a\n' },
  create: { 'a.md': 'old a\n', 'b/new.md': 'new b\n' },
  delete: {},
};
const STEPS: [string, 'old' | 'old+record' | 'new'][] = [
  ['planned', 'old'],
  ['intent-written', 'old+record'],
  ['temp-written', 'old+record'],
  ['checked', 'old+record'],
  ['renamed', 'new'],
  ['dirs-synced', 'new'],
  ['index-written', 'new'],
  ['done', 'new'],
  ['none', 'new'],
];
const KINDS = ['overwrite', 'create', 'delete'] as const;

describe('ContentStore.save of one change', () => {
  describe('killed with SIGKILL at each step (child process running dist/)', () => {
    it('leaves old or new bytes, keeps the identity it showed, finishes or keeps the intent on restart', async () => {
      const scriptDir = await folder();
      const script = join(scriptDir, 'child.mjs');
      const node = await writeStoreChild(script, CHILD);
      const runs = KINDS.flatMap((kind) =>
        STEPS.map(([step, expected]) => ({ kind, step, expected })),
      );
      const cases = await Promise.all(runs.map(() => folder(OLD)));
      const results = await runNodeInPairs(
        node,
        script,
        runs.map(({ kind, step }, index) => [cases[index] as string, step, '0', kind]),
      );

      for (const [index, { kind, step, expected }] of runs.entries()) {
        const label = `${kind} killed after ${step}`;
        const root = cases[index] as string;
        const result = results[index] as NodeRun;
        const [shownIdentity, printed] = result.stdout.split('\n');
        expect(shownIdentity, `${label}: ${result.stderr}`).toMatch(/^repa:document\//u);
        const { store, tree } = await expectKilledSave(
          root,
          { step, result, printed: printed as string, label },
          {
            visible: expected === 'new' ? NEW[kind] : OLD,
            operationId: 'op-single',
            recoverable: expected === 'old+record',
          },
        );
        // The identity the read showed survives the kill, wherever it came.
        if (existsSync(join(root, 'a.md'))) {
          expect((await store.read('a.md')).identity, label).toBe(shownIdentity);
        }
        if (expected === 'new' && kind === 'create') {
          const index = JSON.parse(tree['.repa/identities.json'] as string) as {
            objects: Record<string, string>;
          };
          expect(Object.values(index.objects).sort(), label).toEqual(['a.md', 'b/new.md']);
        }
      }
    }, 240_000);
  });
});
