import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

describe('ContentStore.open after a writer of .repa/ was killed', () => {
  it("removes replaceFile's temp files from .repa/ and .repa/intents/, and nothing else", async () => {
    const root = await tempSpace({
      'a.md': 'a\n',
      '.repa/identities.json.123456': '{"torn',
      '.repa/intents/op-1.json.4294967295': '{"torn',
      '.repa/notes.json.txt': 'not a temp file',
      'b.md.42': 'a user file beside the space files',
    });
    dirs.push(root);
    await ContentStore.open({ root });
    expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
    // The space lock may still linger right after opening (it is released 25 ms after a task).
    const kept = (await readdir(join(root, '.repa'))).filter((name) => name !== 'content.lock');
    expect(kept.sort()).toEqual(['intents', 'notes.json.txt']);
    expect((await readdir(root)).sort()).toEqual(['.repa', 'a.md', 'b.md.42']);
  });
});
