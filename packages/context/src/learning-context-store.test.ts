import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { recordingSyncDirFs } from '@repa/durable-fs/testing';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import {
  LEARNING_CONTEXT_BODY_LIMIT,
  LEARNING_CONTEXT_FILE_LIMIT,
} from './learning-context-file.js';
import { readLearningContext } from './read-learning-context.js';
import { writeLearningContext } from './write-learning-context.js';

function space(): string {
  return mkdtempSync(join(tmpdir(), 'repa-space-'));
}

/** The real file system, except that every call of `method` fails with `code` (recorded in `failed`). */
function failing(method: keyof FsLayer, code: string): { fs: FsLayer; failed: string[] } {
  const failed: string[] = [];
  const fail = async () => {
    failed.push(method);
    throw Object.assign(new Error(`${code}: injected failure of ${method}`), { code });
  };
  return { fs: { ...nodeFsLayer, [method]: fail }, failed };
}

function stored(root: string, text: string): string {
  mkdirSync(join(root, '.repa'), { recursive: true });
  const file = join(root, '.repa', 'learning-context.json');
  writeFileSync(file, text);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<RepaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!RepaError.isInstance(error)) throw new Error(`expected a RepaError, got ${String(error)}`);
  return error;
}

describe('readLearningContext', () => {
  describe('a space without a learning context', () => {
    it('returns null when there is no file (and no .repa folder)', async () => {
      expect(await readLearningContext(space())).toBeNull();
    });
  });

  describe('a stored learning context', () => {
    it('returns the view, ignoring extra fields', async () => {
      const root = space();
      stored(root, JSON.stringify({ revision: '3', body: 'B', sources: ['a.md'], updatedAt: 'x' }));
      expect(await readLearningContext(root)).toEqual({
        revision: '3',
        body: 'B',
        sources: ['a.md'],
      });
    });

    it('reads a body larger than one on-thread read (64 KiB) whole, multi-byte text intact', async () => {
      const root = space();
      const body = 'Chlorophyll – grün. '.repeat(12_000);
      stored(root, JSON.stringify({ revision: '1', body, sources: [] }));
      const view = await readLearningContext(root);
      expect(view?.body).toBe(body);
    });
  });

  describe('failures', () => {
    it('names the file and the JSON problem', async () => {
      const root = space();
      const file = stored(root, '{"revision": "1", "body": ');
      const error = await failure(readLearningContext(root));
      expect(error.code).toBe('context_unavailable');
      expect(error.message).toContain(file);
      expect(error.message).toContain('is not valid JSON');
      expect(error.details).toMatchObject({ file });
    });

    it('names the bad field of a wrong shape', async () => {
      const root = space();
      stored(root, JSON.stringify({ revision: '', body: 1, sources: [] }));
      const error = await failure(readLearningContext(root));
      expect(error.code).toBe('context_unavailable');
      expect(error.message).toContain('revision');
      expect(error.message).toContain('body');
    });

    it('reports an unreadable path (a folder where the file should be)', async () => {
      const root = space();
      mkdirSync(join(root, '.repa', 'learning-context.json'), { recursive: true });
      const error = await failure(readLearningContext(root));
      expect(error.code).toBe('context_unavailable');
      expect(error.message).toContain('cannot be read');
    });

    it('refuses a 64 MiB file with data_too_large naming the file, its size and the limit', async () => {
      const root = space();
      const file = stored(root, JSON.stringify({ revision: '1', body: 'B', sources: [] }));
      truncateSync(file, 64 * 1024 * 1024); // sparse: valid JSON, then NULs
      const error = await failure(readLearningContext(root));
      expect(error).toMatchObject({
        code: 'data_too_large',
        details: { file, size: 64 * 1024 * 1024, limit: LEARNING_CONTEXT_FILE_LIMIT },
      });
      expect(error.message).toContain(file);
      expect(error.fix).toContain('--force');
    });

    it('reads a file of exactly the limit', async () => {
      const root = space();
      const json = JSON.stringify({ revision: '1', body: 'B', sources: [] });
      const file = stored(root, json + ' '.repeat(LEARNING_CONTEXT_FILE_LIMIT - json.length));
      expect(statSync(file).size).toBe(LEARNING_CONTEXT_FILE_LIMIT);
      expect(await readLearningContext(root)).toMatchObject({ body: 'B' });
    });

    it('refuses a FIFO at once instead of waiting for a writer', async () => {
      const root = space();
      mkdirSync(join(root, '.repa'));
      execFileSync('mkfifo', [join(root, '.repa', 'learning-context.json')]);
      const timeout = new Promise<string>((resolve) => {
        setTimeout(() => resolve('still waiting after 5 s'), 5_000).unref();
      });
      const error = await Promise.race([failure(readLearningContext(root)), timeout]);
      expect(error).toMatchObject({ code: 'context_unavailable' });
      expect(String((error as RepaError).message)).toContain('is not a regular file');
    });

    it('does not follow a symlinked learning-context file out of the space', async () => {
      const root = space();
      const outside = join(space(), 'context.json');
      writeFileSync(outside, JSON.stringify({ revision: '1', body: 'outside', sources: [] }));
      mkdirSync(join(root, '.repa'));
      symlinkSync(outside, join(root, '.repa', 'learning-context.json'));
      const error = await failure(readLearningContext(root));
      expect(error.code).toBe('context_unavailable');
      expect(error.message).toContain('is a symlink');
    });

    it('refuses to read through a .repa that is a symlink (space_unsafe)', async () => {
      const root = space();
      const elsewhere = space();
      stored(elsewhere, JSON.stringify({ revision: '1', body: 'elsewhere', sources: [] }));
      symlinkSync(join(elsewhere, '.repa'), join(root, '.repa'));
      expect((await failure(readLearningContext(root))).code).toBe('space_unsafe');
    });
  });
});

describe('writeLearningContext', () => {
  describe('revisions', () => {
    it('starts at 1 and bumps on every write', async () => {
      const root = space();
      const first = await writeLearningContext(root, { body: 'one', sources: ['a.md'] });
      const second = await writeLearningContext(root, { body: 'two', sources: [] });
      expect([first.revision, second.revision]).toEqual(['1', '2']);
      expect(await readLearningContext(root)).toEqual({ revision: '2', body: 'two', sources: [] });
    });

    it('restarts at 1 after a non-numeric revision', async () => {
      const root = space();
      stored(root, JSON.stringify({ revision: 'abc', body: '', sources: [] }));
      expect((await writeLearningContext(root, { body: 'x', sources: [] })).revision).toBe('1');
    });
  });

  describe('safety', () => {
    it('leaves only the file behind (no temp files)', async () => {
      const root = space();
      await writeLearningContext(root, { body: 'x', sources: [] });
      expect(readdirSync(join(root, '.repa'))).toEqual(['.gitignore', 'learning-context.json']);
    });

    it('still saves when the file system refuses a folder fsync (EINVAL)', async () => {
      const root = space();
      const { fs, failed } = failing('syncDir', 'EINVAL');
      const view = await writeLearningContext(root, { body: 'saved', sources: [] }, { fs });
      // The space folder (for the new .repa/), then .repa/ (for the file).
      expect(failed).toEqual(['syncDir', 'syncDir']);
      expect(view.revision).toBe('1');
      expect(await readLearningContext(root)).toEqual({
        revision: '1',
        body: 'saved',
        sources: [],
      });
    });

    it('makes a new .repa/ durable in the space folder, and only a new one', async () => {
      const root = space();
      const { fs, synced } = recordingSyncDirFs();
      await writeLearningContext(root, { body: 'one', sources: [] }, { fs });
      const repa = join(root, '.repa');
      expect(synced).toEqual([root, repa]);
      await writeLearningContext(root, { body: 'two', sources: [] }, { fs });
      expect(synced).toEqual([root, repa, repa]);
    });

    it('makes .repa/ again on the next write when the space folder fsync failed', async () => {
      const root = space();
      const { fs, synced } = recordingSyncDirFs(root);
      const error = await failure(writeLearningContext(root, { body: 'one', sources: [] }, { fs }));
      expect(error.code).toBe('io_error');
      expect(readdirSync(root)).toEqual([]);
      await writeLearningContext(root, { body: 'one', sources: [] }, { fs });
      expect(synced).toEqual([root, join(root, '.repa')]);
    });

    it('fails with io_error on EIO, leaving the old file intact and no temp file', async () => {
      const root = space();
      await writeLearningContext(root, { body: 'old', sources: [] });
      const before = readFileSync(join(root, '.repa', 'learning-context.json'), 'utf8');
      const { fs, failed } = failing('sync', 'EIO');
      const error = await failure(writeLearningContext(root, { body: 'new', sources: [] }, { fs }));
      expect(failed).toEqual(['sync']);
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ errno: 'EIO' });
      expect(readFileSync(join(root, '.repa', 'learning-context.json'), 'utf8')).toBe(before);
      expect(readdirSync(join(root, '.repa'))).toEqual(['.gitignore', 'learning-context.json']);
    });

    it('never overwrites a corrupt file', async () => {
      const root = space();
      const file = stored(root, 'not json');
      const error = await failure(writeLearningContext(root, { body: 'x', sources: [] }));
      expect(error.code).toBe('context_unavailable');
      expect(readFileSync(file, 'utf8')).toBe('not json');
    });

    it('with force moves a corrupt file aside byte for byte, then writes revision 1', async () => {
      const root = space();
      const file = stored(root, 'not json');
      const view = await writeLearningContext(
        root,
        { body: 'fresh', sources: [] },
        { force: true },
      );
      expect(view.revision).toBe('1');
      expect(view.damagedFileKept).toMatch(/learning-context\.damaged-.*\.json$/);
      expect(readFileSync(view.damagedFileKept ?? '', 'utf8')).toBe('not json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
        revision: '1',
        body: 'fresh',
      });
    });

    it('with force moves a file past the size limit aside, then writes revision 1', async () => {
      const root = space();
      const file = stored(root, '{}');
      truncateSync(file, LEARNING_CONTEXT_FILE_LIMIT + 1);
      expect((await failure(writeLearningContext(root, { body: 'x', sources: [] }))).code).toBe(
        'data_too_large',
      );
      const view = await writeLearningContext(root, { body: 'x', sources: [] }, { force: true });
      expect(view.revision).toBe('1');
      expect(statSync(view.damagedFileKept ?? '').size).toBe(LEARNING_CONTEXT_FILE_LIMIT + 1);
      expect(await readLearningContext(root)).toMatchObject({ revision: '1', body: 'x' });
    });

    it('refuses sources that would make the file pass its size limit, touching nothing', async () => {
      const root = space();
      const file = stored(root, JSON.stringify({ revision: '4', body: 'old', sources: [] }));
      const sources = Array.from(
        { length: 20_000 },
        (_, index) => `notes/${index}-${'x'.repeat(40)}.md`,
      );
      const error = await failure(
        writeLearningContext(root, { body: 'x', sources }, { force: true }),
      );
      expect(error).toMatchObject({
        code: 'invalid_request',
        details: { limit: LEARNING_CONTEXT_FILE_LIMIT },
      });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ revision: '4' });
    });

    it('refuses a body over the limit with invalid_request, writing nothing', async () => {
      const root = space();
      const error = await failure(
        writeLearningContext(root, {
          body: 'é'.repeat(LEARNING_CONTEXT_BODY_LIMIT / 2 + 1),
          sources: [],
        }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.details).toMatchObject({ limit: LEARNING_CONTEXT_BODY_LIMIT });
      expect(await readLearningContext(root)).toBeNull();
    });
  });
});
