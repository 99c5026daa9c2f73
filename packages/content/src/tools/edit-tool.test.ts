import { createHash } from 'node:crypto';
import { chmod, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createEditToolDefinition, type ToolDefinition } from '@earendil-works/pi-coding-agent';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { recordingFs } from '../test/recording-fs.js';
import { editCallPreviewPending } from '../test/render-edit-call.js';
import { readTree, tempSpaces } from '../test/temp-space.js';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const space = tempSpaces();

/** Reads `path`, edits it, and returns the bytes on disk afterwards. */
async function readThenEdit(content: string | Uint8Array, oldText: string, newText: string) {
  const root = await space({ 'f.txt': content });
  const { call } = await openTools(root);
  await call('read', { path: 'f.txt' });
  const result = await call('edit', { path: 'f.txt', edits: [{ oldText, newText }] });
  return { result, bytes: await readFile(join(root, 'f.txt')), root };
}

/** A space whose `f.txt` changed a minute ago (a settled stat key), read whole by the tools. */
async function readSettled(options: Parameters<typeof openTools>[1] = {}) {
  const root = await space({ 'f.txt': 'alpha\nbeta\n' });
  const past = new Date(Date.now() - 60_000);
  await utimes(join(root, 'f.txt'), past, past);
  const { call } = await openTools(root, options);
  await call('read', { path: 'f.txt' });
  return { root, call, past, file: join(root, 'f.txt') };
}

describe('edit tool', () => {
  describe('saving', () => {
    it("saves through the store with receipts and keeps Pi's committed diff", async () => {
      const { result, bytes } = await readThenEdit('alpha\nbeta\n', 'beta', 'BETA');
      expect(bytes.toString()).toBe('alpha\nBETA\n');
      expect(textOf(result)).toBe('Successfully replaced 1 block(s) in f.txt.');
      expect(result.details).toMatchObject({
        operationId: 'op-1',
        receipts: [
          { target: 'f.txt', previousVersion: sha('alpha\nbeta\n'), version: sha('alpha\nBETA\n') },
        ],
        firstChangedLine: 2,
      });
      expect(result.details.diff).toContain('+2 BETA');
      expect(result.details.patch).toContain('+BETA');
    });

    it('requires a read first (read_required) and the current version (stale_version)', async () => {
      const root = await space({ 'f.txt': 'one\n' });
      const { call } = await openTools(root);
      const unread = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'one', newText: 'two' }] }),
      );
      expect(unread.code).toBe('read_required');
      expect(unread.message).toMatch(/^read_required: /);
      await call('read', { path: 'f.txt' });
      await writeFile(join(root, 'f.txt'), 'one, changed elsewhere\n');
      const stale = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'one', newText: 'two' }] }),
      );
      expect(stale.code).toBe('stale_version');
      expect(stale.message).toContain('one, changed elsewhere');
      expect((await readFile(join(root, 'f.txt'))).toString()).toBe('one, changed elsewhere\n');
    });

    it('edits after a partial read (R64) and after its own earlier save', async () => {
      const root = await space({ 'f.txt': 'a\nb\nc\n' });
      const { call } = await openTools(root);
      await call('read', { path: 'f.txt', offset: 3 });
      await call('edit', { path: 'f.txt', edits: [{ oldText: 'c', newText: 'C' }] });
      await call('edit', { path: 'f.txt', edits: [{ oldText: 'a', newText: 'A' }] });
      expect((await readFile(join(root, 'f.txt'))).toString()).toBe('A\nb\nC\n');
    });

    it('edits a file it read whole, settled and unchanged, without opening it again', async () => {
      const { fs, opened } = recordingFs();
      const { call, file } = await readSettled({ fs });
      opened.length = 0;
      await call('edit', { path: 'f.txt', edits: [{ oldText: 'beta', newText: 'BETA' }] });
      expect(opened.filter((path) => path === file)).toEqual([]);
      expect((await readFile(file)).toString()).toBe('alpha\nBETA\n');
    });

    it('refuses a same-size rewrite whose mtime was set back (its ctime moved)', async () => {
      const { call, file, past } = await readSettled();
      // Rewritten in place, then its times put back (as `touch -r` or `cp -p` would).
      await writeFile(file, 'ALPHA\nbeta\n');
      await utimes(file, past, past);
      const error = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'beta', newText: 'BETA' }] }),
      );
      expect(error.code).toBe('stale_version');
      expect((await readFile(file)).toString()).toBe('ALPHA\nbeta\n');
    });

    it('reads the file again when it changed after a settled read, and refuses the stale edit', async () => {
      const { call, file } = await readSettled();
      // Same size, another mtime: the stat key changed.
      await writeFile(file, 'alpha\nBETA\n');
      const error = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'alpha', newText: 'ALPHA' }] }),
      );
      expect(error.code).toBe('stale_version');
      expect((await readFile(file)).toString()).toBe('alpha\nBETA\n');
    });

    it("reports Pi's matching errors with a code and changes nothing", async () => {
      const root = await space({ 'f.txt': 'x\nx\n' });
      const { call } = await openTools(root);
      await call('read', { path: 'f.txt' });
      const missing = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'y', newText: 'z' }] }),
      );
      expect(missing.code).toBe('patch_conflict');
      const twice = await repaErrorOf(
        call('edit', { path: 'f.txt', edits: [{ oldText: 'x', newText: 'z' }] }),
      );
      expect(twice.code).toBe('invalid_request');
      expect(twice.message).toContain('Found 2 occurrences');
      expect((await readFile(join(root, 'f.txt'))).toString()).toBe('x\nx\n');
    });

    it('refuses to edit bytes that are not UTF-8 text', async () => {
      const { call } = await openTools(await space({ 'f.bin': Buffer.from([0x61, 0xff, 0x0a]) }));
      await call('read', { path: 'f.bin' });
      const error = await repaErrorOf(
        call('edit', { path: 'f.bin', edits: [{ oldText: 'a', newText: 'b' }] }),
      );
      expect(error.code).toBe('invalid_request');
    });
  });

  describe('preserving what was not asked to change', () => {
    it('keeps CRLF line endings', async () => {
      const { bytes } = await readThenEdit('a\r\nb\r\nc\r\n', 'b', 'B\nB2');
      expect(bytes.toString()).toBe('a\r\nB\r\nB2\r\nc\r\n');
    });

    it('keeps a BOM', async () => {
      const { bytes } = await readThenEdit('\uFEFFtitle\nbody\n', 'body', 'BODY');
      expect(bytes.toString()).toBe('\uFEFFtitle\nBODY\n');
    });

    it('keeps a missing final newline', async () => {
      const { bytes } = await readThenEdit('one\ntwo', 'one', 'ONE');
      expect(bytes.toString()).toBe('ONE\ntwo');
    });

    it('keeps each line ending of a file that mixes them, and lone carriage returns', async () => {
      const { bytes } = await readThenEdit('a\r\nb\nc\r\nd\re\n', 'c', 'C');
      expect(bytes.toString()).toBe('a\r\nb\nC\r\nd\re\n');
      const last = await readThenEdit('a\nb\r\nlast', 'last', 'LAST\nMORE');
      expect(last.bytes.toString()).toBe('a\nb\r\nLAST\nMORE');
    });

    it('keeps lone carriage returns as the line endings of a file that has only them', async () => {
      const { bytes } = await readThenEdit('a\rb\rc\r', 'b', 'B\nB2');
      expect(bytes.toString()).toBe('a\rB\rB2\rc\r');
      const last = await readThenEdit('one\rtwo', 'two', 'TWO\nTHREE\n');
      expect(last.bytes.toString()).toBe('one\rTWO\rTHREE\r');
    });

    it('keeps the file mode', async () => {
      const root = await space({ 'run.sh': 'echo one\n' });
      await chmod(join(root, 'run.sh'), 0o751);
      const { call } = await openTools(root);
      await call('read', { path: 'run.sh' });
      await call('edit', { path: 'run.sh', edits: [{ oldText: 'one', newText: 'two' }] });
      expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o751);
    });
  });

  describe('cancel', () => {
    it('reports an edit whose save began before the cancel as saved (R66)', async () => {
      const root = await space({ 'f.txt': 'a\n' });
      const controller = new AbortController();
      const { call } = await openTools(root, {
        hooks: { step: (step) => void (step === 'checked' && controller.abort()) },
      });
      await call('read', { path: 'f.txt' });
      const result = await call(
        'edit',
        { path: 'f.txt', edits: [{ oldText: 'a', newText: 'b' }] },
        controller.signal,
      );
      expect(result.details).toMatchObject({
        receipts: [{ version: sha('b\n') }],
        firstChangedLine: 1,
      });
      expect(result.details.diff).toContain('+1 b');
      expect((await readFile(join(root, 'f.txt'))).toString()).toBe('b\n');
    });
  });

  describe('renderCall', () => {
    it("never starts Pi's disk preview (R67)", async () => {
      const root = await space({ 'f.txt': 'a\n' });
      const { tools } = await openTools(root);
      expect(editCallPreviewPending(tools.edit as ToolDefinition, root)).toBe(false);
      // Pi's own renderer would read the file for a preview.
      expect(
        editCallPreviewPending(createEditToolDefinition(root) as unknown as ToolDefinition, root),
      ).toBe(true);
      expect(Object.keys(await readTree(root))).toEqual(['f.txt']);
    });
  });
});
