import { createHash } from 'node:crypto';

import type { ExtensionContext } from '@earendil-works/pi-coding-agent';
import type { FileChange } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentObserver } from '../observer/index.js';
import { ContentStore } from '../store/index.js';
import { readTextTree, removeAll, tempSpace } from '../test/temp-space.js';
import { createSandboxedBashTool } from './bash-tool.js';

// Needs bubblewrap, as the host's bash tests. A change check that hashed a sparse terabyte file
// byte by byte (the old code) fails by the test's timeout.
const HANG = 20_000;
const TIB = 2 ** 40;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

describe('bash tool: the changes after a command', () => {
  it(
    'lists a sparse terabyte file without hashing it, and a read file grown past the read limit as too large to compare',
    async () => {
      const root = await tempSpace({ 'read.md': 'seen\n' });
      dirs.push(root);
      const store = await ContentStore.open({ root });
      const observer = new ContentObserver(store);
      observer.recordRead(await store.read('read.md'), { partial: false });
      const changes: FileChange[] = [];
      const tool = createSandboxedBashTool({
        store,
        observer,
        timeoutSeconds: () => 60,
        onChanges: (found) => {
          changes.push(...found);
        },
      });
      const result = await tool.execute(
        'call-1',
        { command: 'truncate -s 1T huge.bin read.md && printf hi > small.txt' },
        undefined,
        undefined,
        { cwd: root } as ExtensionContext,
      );
      expect(changes).toEqual([
        expect.objectContaining({
          target: 'read.md',
          kind: 'modified',
          previousVersion: sha('seen\n'),
          version: null,
          bytes: TIB,
        }),
        {
          target: 'huge.bin',
          kind: 'modified',
          previousVersion: null,
          version: null,
          form: 'location',
          hint: 'changed by a command; this host had not read it; too large to compare (1099511627776 bytes, over 8 MiB)',
          bytes: TIB,
        },
        {
          target: 'small.txt',
          kind: 'modified',
          previousVersion: null,
          version: sha('hi'),
          form: 'location',
          hint: 'changed by a command; this host had not read it',
          bytes: 2,
        },
      ]);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text).toContain(
        '- modified: read.md\n- new or changed: huge.bin\n- new or changed: small.txt',
      );
      expect(observer.list()).toEqual([]);
    },
    HANG,
  );

  it('runs a command with the space read-only while the run may change no file, and writable otherwise', async () => {
    const root = await tempSpace({ 'a.md': 'kept\n' });
    dirs.push(root);
    const store = await ContentStore.open({ root });
    let readOnly = true;
    const tool = createSandboxedBashTool({
      store,
      observer: new ContentObserver(store),
      timeoutSeconds: () => 60,
      approvals: { asking: () => false, approve: async () => undefined, readOnly: () => readOnly },
    });
    const run = async () => {
      const result = await tool
        .execute(
          'call-1',
          { command: 'echo changed > a.md; echo new > b.md; cat a.md' },
          undefined,
          undefined,
          {
            cwd: root,
          } as ExtensionContext,
        )
        .catch((error: Error) => ({ content: [{ type: 'text', text: error.message }] }));
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    };
    expect(await run()).toContain('Read-only file system');
    expect(await readTextTree(root)).toEqual({ 'a.md': 'kept\n' });
    readOnly = false;
    await run();
    expect(await readTextTree(root)).toEqual({ 'a.md': 'changed\n', 'b.md': 'new\n' });
  });
});
