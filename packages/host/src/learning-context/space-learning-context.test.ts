import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getLearningContext, setLearningContext } from './space-learning-context.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function space(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-context-edit-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

async function states(root: string) {
  return (await getLearningContext(root))?.sourceStates?.map(({ path, state }) => [path, state]);
}

describe('setLearningContext without source versions (an edit)', () => {
  it('keeps the version a named source was built from, so a change since stays changed', async () => {
    const root = space({ 'a.md': 'A one', 'b.md': 'B one' });
    const first = await setLearningContext(root, {
      body: 'Built from a and b.',
      sources: ['a.md', 'b.md'],
      expectedRevision: null,
    });
    writeFileSync(join(root, 'a.md'), 'A two, rewritten since');
    expect(await states(root)).toEqual([
      ['a.md', 'changed'],
      ['b.md', 'unchanged'],
    ]);
    // The learner edits the body, naming the same sources (as `repa context edit` and the page do).
    await setLearningContext(root, {
      body: 'Built from a and b, with a note of mine.',
      sources: ['./a.md', 'b.md'],
      expectedRevision: first.revision,
    });
    expect(await states(root)).toEqual([
      ['a.md', 'changed'],
      ['b.md', 'unchanged'],
    ]);
  });

  it('hashes a source the context did not name before as it is now', async () => {
    const root = space({ 'a.md': 'A', 'c.md': 'C' });
    const first = await setLearningContext(root, {
      body: 'From a.',
      sources: ['a.md'],
      expectedRevision: null,
    });
    await setLearningContext(root, {
      body: 'From a and c.',
      sources: ['a.md', 'c.md'],
      expectedRevision: first.revision,
    });
    writeFileSync(join(root, 'c.md'), 'C changed after it was named');
    expect(await states(root)).toEqual([
      ['a.md', 'unchanged'],
      ['c.md', 'changed'],
    ]);
  });
});
