import { createHash } from 'node:crypto';
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { readTextTree, tempSpaces } from '../test/temp-space.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const space = tempSpaces();

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/** A space with `files`, all read by the agent, and the patch applied. */
async function applyTo(files: Record<string, string>, text: string) {
  const root = await space(files);
  const tools = await openTools(root);
  await tools.observe(...Object.keys(files));
  const result = await tools.call('apply_patch', { input: text });
  return { root, result, tree: await readTextTree(root), ...tools };
}

describe('apply_patch tool', () => {
  describe('results', () => {
    it('returns a Codex-style summary, receipts and a diff', async () => {
      const { result, tree } = await applyTo(
        { 'a.md': 'one\ntwo\n', 'gone.md': 'bye\n' },
        patch(
          '*** Add File: new/b.md',
          '+hello',
          '*** Update File: a.md',
          '@@',
          '-two',
          '+TWO',
          '*** Delete File: gone.md',
        ),
      );
      expect(textOf(result)).toBe(
        'Success. Updated the following files:\nA new/b.md\nM a.md\nD gone.md',
      );
      expect(tree).toEqual({ 'a.md': 'one\nTWO\n', 'new/b.md': 'hello\n' });
      expect(result.details).toMatchObject({
        operationId: 'op-1',
        receipts: [
          { target: 'new/b.md', previousVersion: null, version: sha('hello\n') },
          { target: 'a.md', previousVersion: sha('one\ntwo\n'), version: sha('one\nTWO\n') },
          { target: 'gone.md', previousVersion: sha('bye\n'), version: null },
        ],
      });
      expect(result.details.diff).toContain('+TWO');
    });

    it('accepts a patch wrapped in a heredoc and with CRLF line breaks', async () => {
      const text = `<<'EOF'\n${patch('*** Update File: a.md', '@@', '-x', '+y')}\nEOF\n`.replace(
        /\n/g,
        '\r\n',
      );
      const { tree } = await applyTo({ 'a.md': 'x\n' }, text);
      expect(tree).toEqual({ 'a.md': 'y\n' });
    });
  });

  describe('preserving what was not asked to change', () => {
    it('keeps CRLF line endings and gives new lines the same ending', async () => {
      const { tree } = await applyTo(
        { 'a.txt': 'one\r\ntwo\r\nthree\r\n' },
        patch('*** Update File: a.txt', '@@', ' one', '-two', '+TWO', '+2b', ' three'),
      );
      expect(tree['a.txt']).toBe('one\r\nTWO\r\n2b\r\nthree\r\n');
    });

    it('keeps a BOM', async () => {
      const { tree } = await applyTo(
        { 'a.txt': '\uFEFFtitle\nbody\n' },
        patch('*** Update File: a.txt', '@@', ' title', '-body', '+BODY'),
      );
      expect(tree['a.txt']).toBe('\uFEFFtitle\nBODY\n');
    });

    it('keeps a missing final newline', async () => {
      const middle = await applyTo(
        { 'a.txt': 'one\ntwo\nend' },
        patch('*** Update File: a.txt', '@@', '-one', '+ONE'),
      );
      expect(middle.tree['a.txt']).toBe('ONE\ntwo\nend');
      const appended = await applyTo(
        { 'a.txt': 'one\nend' },
        patch('*** Update File: a.txt', '@@', ' end', '+after', '*** End of File'),
      );
      expect(appended.tree['a.txt']).toBe('one\nend\nafter');
    });

    it("keeps the file's own bytes of context lines matched leniently", async () => {
      const { tree } = await applyTo(
        { 'a.txt': 'keep me   \nold \u2013 dash\n' },
        patch('*** Update File: a.txt', '@@', ' keep me', '-old - dash', '+new'),
      );
      expect(tree['a.txt']).toBe('keep me   \nnew\n');
    });

    it('keeps the file mode of updated files', async () => {
      const root = await space({ 'run.sh': 'echo 1\n' });
      await chmod(join(root, 'run.sh'), 0o700);
      const { observe, call } = await openTools(root);
      await observe('run.sh');
      await call('apply_patch', {
        input: patch('*** Update File: run.sh', '@@', '-echo 1', '+echo 2'),
      });
      expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o700);
    });
  });

  describe('identities', () => {
    it('moves the identity with the file and keeps the observation', async () => {
      const root = await space({ 'old/a.md': 'text\n' });
      const { store, observer, observe, call } = await openTools(root);
      await observe('old/a.md');
      const { identity } = await store.read('old/a.md');
      const result = await call('apply_patch', {
        input: patch(
          '*** Update File: old/a.md',
          '*** Move to: new/b.md',
          '@@',
          '-text',
          '+moved text',
        ),
      });
      expect(textOf(result)).toContain('M new/b.md (moved from old/a.md)');
      expect(result.details.receipts).toMatchObject([
        { target: 'old/a.md', identity, version: null },
        { target: 'new/b.md', identity, version: sha('moved text\n') },
      ]);
      expect((await store.locate(identity)).target).toBe('new/b.md');
      expect(observer.get('new/b.md')).toMatchObject({ identity, version: sha('moved text\n') });
      expect(observer.get('old/a.md')).toBeUndefined();
      // The agent may keep working on the moved file without reading it again.
      await call('edit', { path: identity, edits: [{ oldText: 'moved', newText: 'still' }] });
      expect(await readTextTree(root)).toEqual({ 'new/b.md': 'still text\n' });
    });

    it('keeps a partial observation partial across a move', async () => {
      const root = await space({ 'a.md': 'one\ntwo\n' });
      const { observer, call } = await openTools(root);
      await call('read', { path: 'a.md', limit: 1 });
      await call('apply_patch', {
        input: patch('*** Update File: a.md', '*** Move to: b.md', '@@', '-one', '+ONE'),
      });
      expect(observer.get('b.md')).toMatchObject({ partial: true });
      expect(observer.get('b.md')?.text).toBeUndefined();
    });
  });

  describe('all or nothing', () => {
    it('changes no file when a later hunk does not apply', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { observe, call } = await openTools(root);
      await observe('a.md', 'b.md');
      const error = await repaErrorOf(
        call('apply_patch', {
          input: patch(
            '*** Add File: c.md',
            '+c',
            '*** Update File: a.md',
            '@@',
            '-a',
            '+A',
            '*** Update File: b.md',
            '@@',
            '-nope',
            '+B',
          ),
        }),
      );
      expect(error.code).toBe('patch_conflict');
      expect(error.message).toMatch(/^patch_conflict: Failed to find expected lines in b\.md/);
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n', 'b.md': 'b\n' });
    });

    it('changes no file when one of them changed on disk since it was read', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { observe, call } = await openTools(root);
      await observe('a.md', 'b.md');
      await writeFile(join(root, 'b.md'), 'b\nadded elsewhere\n');
      const error = await repaErrorOf(
        call('apply_patch', {
          input: patch(
            '*** Update File: a.md',
            '@@',
            '-a',
            '+A',
            '*** Update File: b.md',
            '@@',
            '-b',
            '+B',
          ),
        }),
      );
      expect(error.code).toBe('stale_version');
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n', 'b.md': 'b\nadded elsewhere\n' });
    });

    it.each([
      ['an update', patch('*** Update File: a.md', '@@', '-a', '+A')],
      ['a delete', patch('*** Delete File: a.md')],
      ['an add over it', patch('*** Add File: a.md', '+A')],
      ['a move onto it', patch('*** Update File: b.md', '*** Move to: a.md', '@@', '-b', '+B')],
    ])('requires the file to have been read for %s (read_required)', async (_, text) => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const { observe, call } = await openTools(root);
      await observe('b.md');
      expect((await repaErrorOf(call('apply_patch', { input: text }))).code).toBe('read_required');
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n', 'b.md': 'b\n' });
    });

    it.each([
      ['../escape.md', 'path_outside_space'],
      ['/tmp/x.md', 'path_outside_space'],
      ['.repa/x.json', 'protected_path'],
      ['.Rep\u0430/x.json', 'protected_path'],
    ])('refuses the path %j (%s) and changes nothing', async (path, code) => {
      const root = await space({ 'a.md': 'a\n' });
      const { observe, call } = await openTools(root);
      await observe('a.md');
      const text = patch('*** Update File: a.md', '@@', '-a', '+A', `*** Add File: ${path}`, '+x');
      expect((await repaErrorOf(call('apply_patch', { input: text }))).code).toBe(code);
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n' });
    });

    it('lets later hunks see earlier ones, as Codex does', async () => {
      const { tree } = await applyTo(
        {},
        patch(
          '*** Add File: a.md',
          '+one',
          '*** Update File: a.md',
          '@@',
          '-one',
          '+two',
          '*** Update File: a.md',
          '*** Move to: b.md',
          '@@',
          '-two',
          '+three',
        ),
      );
      expect(tree).toEqual({ 'b.md': 'three\n' });
    });
  });
});
