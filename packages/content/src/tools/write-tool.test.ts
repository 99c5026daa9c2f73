import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { readTextTree, readTree, tempSpaces } from '../test/temp-space.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const space = tempSpaces();

describe('write tool', () => {
  describe('new files', () => {
    it('creates the file and its folders and returns the receipt with the operation id', async () => {
      const root = await space();
      const { call } = await openTools(root);
      const result = await call('write', { path: 'notes/new/a.md', content: 'hello\n' });
      expect(textOf(result)).toMatch(
        /^Successfully wrote 6 bytes to notes\/new\/a\.md \(repa:document\//,
      );
      expect(result.details).toMatchObject({
        operationId: 'op-1',
        receipts: [
          {
            operationId: 'op-1',
            target: 'notes/new/a.md',
            previousVersion: null,
            version: sha('hello\n'),
            bytes: 6,
          },
        ],
      });
      expect(await readTextTree(root)).toEqual({ 'notes/new/a.md': 'hello\n' });
    });

    it('takes the new baseline from the receipt, so its own save is never reported as a change', async () => {
      const root = await space();
      const { call, observer } = await openTools(root);
      await call('write', { path: 'a.md', content: 'one\n' });
      expect(observer.get('a.md')).toMatchObject({
        version: sha('one\n'),
        partial: false,
        text: 'one\n',
      });
      expect(await observer.checkChanges('diff')).toEqual({ changes: [] });
      // It may overwrite its own file again without reading it.
      await call('write', { path: 'a.md', content: 'two\n' });
      expect(await readFile(join(root, 'a.md'), 'utf8')).toBe('two\n');
    });

    it('creates nothing when the path is refused', async () => {
      const root = await space();
      const { call } = await openTools(root);
      for (const [path, code] of [
        ['deep/er/CON', 'invalid_request'],
        ['deep/../../x.md', 'path_outside_space'],
        ['deep/.repa/x.md', 'protected_path'],
      ]) {
        expect((await repaErrorOf(call('write', { path, content: 'x' }))).code).toBe(code);
      }
      expect(Object.keys(await readTree(root, { withRepa: true }))).toEqual([]);
    });
  });

  describe('existing files', () => {
    it('refuses to overwrite a file it never read (read_required)', async () => {
      const root = await space({ 'a.md': 'precious\n' });
      const { call } = await openTools(root);
      const error = await repaErrorOf(call('write', { path: 'a.md', content: 'blind' }));
      expect(error.code).toBe('read_required');
      expect(error.message).toContain('Fix: Read the file first');
      expect(await readTextTree(root)).toEqual({ 'a.md': 'precious\n' });
    });

    it('refuses a file that changed since it was read, showing the current text (stale_version)', async () => {
      const root = await space({ 'a.md': 'one\n' });
      const { call } = await openTools(root);
      await call('read', { path: 'a.md' });
      await writeFile(join(root, 'a.md'), 'changed elsewhere\n');
      const error = await repaErrorOf(call('write', { path: 'a.md', content: 'mine\n' }));
      expect(error.code).toBe('stale_version');
      expect(error.details).toMatchObject({ currentVersion: sha('changed elsewhere\n') });
      expect(error.message).toContain('changed elsewhere');
      expect(await readTextTree(root)).toEqual({ 'a.md': 'changed elsewhere\n' });
    });

    it('overwrites a file read at its current version, even after a partial read', async () => {
      const root = await space({ 'a.md': 'l1\nl2\nl3\n' });
      const { call } = await openTools(root);
      await call('read', { path: 'a.md', limit: 1 });
      const result = await call('write', { path: 'a.md', content: 'new\n' });
      expect(result.details).toMatchObject({
        receipts: [{ previousVersion: sha('l1\nl2\nl3\n') }],
      });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'new\n' });
    });
  });

  describe('cancel', () => {
    it('writes nothing when cancelled before it starts', async () => {
      const root = await space();
      const { call } = await openTools(root);
      const error = await repaErrorOf(
        call('write', { path: 'a.md', content: 'x' }, AbortSignal.abort()),
      );
      expect(error.code).toBe('cancelled');
      expect(await readTextTree(root)).toEqual({});
    });

    it('reports a save that began before the cancel as saved (R66)', async () => {
      const root = await space();
      const controller = new AbortController();
      const { call } = await openTools(root, {
        hooks: { step: (step) => void (step === 'checked' && controller.abort()) },
      });
      const result = await call('write', { path: 'a.md', content: 'x' }, controller.signal);
      expect(controller.signal.aborted).toBe(true);
      expect(result.details).toMatchObject({ receipts: [{ target: 'a.md', version: sha('x') }] });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'x' });
    });
  });
});
