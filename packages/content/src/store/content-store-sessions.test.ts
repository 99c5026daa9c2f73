import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SaveStep } from '../save/index.js';
import { openTools } from '../test/content-tools.js';
import { readTextTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const bytes = (text: string) => Buffer.from(text, 'utf8');
const space = tempSpaces();

const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'fulfilled' ? 'saved' : ((result.reason as { code?: string }).code ?? 'none');

/** A hook that holds the save after `at` until `release()` is called; `reached` resolves there. */
function holdAt(at: SaveStep) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  return {
    hooks: {
      step: async (step: SaveStep) => {
        if (step !== at) return;
        reached();
        await gate;
      },
    },
    arrived,
    release: () => release(),
  };
}

describe('ContentStore across sessions of one process', () => {
  it('gives every open of one space the same store, so of two saves from one version exactly one wins (40 races)', async () => {
    const root = await space({ 'a.md': 'base\n' });
    const first = await ContentStore.open({ root });
    const second = await ContentStore.open({ root: `${root}/` });
    expect(second).toBe(first);
    for (let round = 0; round < 40; round++) {
      const [one, two] = [await first.read('a.md'), await second.read('a.md')];
      const results = await Promise.allSettled([
        first.save([
          { target: 'a.md', content: bytes(`one ${round}\n`), expectedVersion: one.version },
        ]),
        second.save([
          { target: 'a.md', content: bytes(`two ${round}\n`), expectedVersion: two.version },
        ]),
      ]);
      expect(results.map(codeOf).sort(), `round ${round}`).toEqual(['saved', 'stale_version']);
      const winner = results[0]?.status === 'fulfilled' ? `one ${round}\n` : `two ${round}\n`;
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe(winner);
    }
  });

  it('lets one of two sessions win when one agent uses write and the other apply_patch on one file (20 races)', async () => {
    const root = await space({ 'a.md': 'base\n' });
    const one = await openTools(root);
    const two = await openTools(root);
    for (let round = 0; round < 20; round++) {
      await one.observe('a.md');
      await two.observe('a.md');
      const line = (await readFile(join(root, 'a.md'), 'utf8')).trimEnd();
      const results = await Promise.allSettled([
        one.call('write', { path: 'a.md', content: `write ${round}\n` }),
        two.call('apply_patch', {
          input: `*** Begin Patch\n*** Update File: a.md\n@@\n-${line}\n+patch ${round}\n*** End Patch`,
        }),
      ]);
      expect(results.map(codeOf).sort(), `round ${round}`).toEqual(['saved', 'stale_version']);
      const winner = results[0]?.status === 'fulfilled' ? `write ${round}\n` : `patch ${round}\n`;
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe(winner);
    }
  });

  const STEPS: SaveStep[] = [
    'planned',
    'intent-written',
    'temp-written',
    'checked',
    'renamed',
    'dirs-synced',
    'index-written',
    'done',
  ];
  for (const at of STEPS) {
    it(`lets a save held after ${at} win against another store's save from the same version`, async () => {
      const root = await space({ 'a.md': 'base\n' });
      const held = holdAt(at);
      // Private stores (test hooks): what two processes would have, sharing only the disk.
      const first = await ContentStore.open({ root, hooks: held.hooks });
      const second = await ContentStore.open({ root, hooks: {} });
      const [one, two] = [await first.read('a.md'), await second.read('a.md')];
      const winning = first.save([
        { target: 'a.md', content: bytes('one\n'), expectedVersion: one.version },
      ]);
      await held.arrived;
      const losing = second.save([
        { target: 'a.md', content: bytes('two\n'), expectedVersion: two.version },
      ]);
      // Give the competing save every chance to run while the first one is held.
      await new Promise((resolve) => setTimeout(resolve, 50));
      held.release();
      const results = await Promise.allSettled([winning, losing]);
      expect(results.map(codeOf)).toEqual(['saved', 'stale_version']);
      expect(await readTextTree(root)).toEqual({ 'a.md': 'one\n' });
      expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
    });
  }

  it('does not break a save held after temp-written when a second store opens (recovery waits for it)', async () => {
    const root = await space({ 'a.md': 'base\n' });
    const held = holdAt('temp-written');
    const first = await ContentStore.open({ root, hooks: held.hooks });
    const a = await first.read('a.md');
    const saving = first.save([
      { target: 'a.md', content: bytes('new\n'), expectedVersion: a.version },
      { target: 'dir/b.md', content: bytes('b\n'), expectedVersion: null },
    ]);
    await held.arrived;
    const opening = ContentStore.open({ root, hooks: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.release();
    const [receipts, second] = await Promise.all([saving, opening]);
    expect(receipts.map((receipt) => receipt.version)).toEqual([sha('new\n'), sha('b\n')]);
    expect(await readTextTree(root)).toEqual({ 'a.md': 'new\n', 'dir/b.md': 'b\n' });
    expect(second.recovered).toEqual([]);
    expect(await second.listRecoverable()).toEqual([]);
  });

  it("keeps another store's identity assignments when it writes the identity index", async () => {
    const root = await space({ 'x.md': 'x\n', 'y.md': 'y\n' });
    const first = await ContentStore.open({ root, hooks: {} });
    const second = await ContentStore.open({ root, hooks: {} });
    const x = await first.read('x.md');
    const y = await second.read('y.md');
    expect((await second.read('x.md')).identity).toBe(x.identity);
    expect((await second.locate(x.identity)).target).toBe('x.md');
    // A new object: the second store writes the index, with the first one's assignment in it.
    const [z] = await second.save([
      { target: 'z.md', content: bytes('z\n'), expectedVersion: null },
    ]);
    const index = JSON.parse(await readFile(join(root, '.repa/identities.json'), 'utf8')) as {
      objects: Record<string, string>;
    };
    expect(index.objects).toEqual({
      [x.identity]: 'x.md',
      [y.identity]: 'y.md',
      [z?.identity ?? '']: 'z.md',
    });
  });
});
