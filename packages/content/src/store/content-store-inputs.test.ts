import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentObserver } from '../observer/index.js';
import { recordingFs } from '../test/recording-fs.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const dirs: string[] = [];
const fifos: string[] = [];
const servers: Server[] = [];
const folder = async (files: Record<string, string> = {}) => {
  const root = await realpath(await tempSpace(files));
  dirs.push(root);
  return root;
};

/** Opens each FIFO for writing once, so that a reader stuck in open(2) (a regression) returns. */
function unblockFifos() {
  for (const path of fifos.splice(0)) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader is waiting (ENXIO): nothing was stuck.
    }
  }
}

afterEach(async () => {
  unblockFifos();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  await removeAll(dirs);
});

const mkfifo = (path: string) => {
  execFileSync('mkfifo', [path]);
  fifos.push(path);
  return path;
};

/** The promise's outcome, or a failure when it takes longer than 5 s (a hang). */
function within5s<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('still waiting after 5 s')), 5000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The space's entries other than Repa's own `.repa` folder (a save takes its lock there). */
async function userEntries(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => name !== '.repa');
}

describe('ContentStore inputs', () => {
  describe('files that are not regular files', () => {
    it('refuses to read a FIFO with invalid_request instead of waiting for a writer', async () => {
      const root = await folder();
      mkfifo(join(root, 'pipe.md'));
      const store = await ContentStore.open({ root });
      const error = await within5s(repaErrorOf(store.read('pipe.md')));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/"pipe\.md" is not a regular file/);
    });

    it('refuses to read a socket with invalid_request', async () => {
      const root = await folder();
      const server = createServer();
      servers.push(server);
      await new Promise<void>((done) => server.listen(join(root, 'sock'), done));
      const store = await ContentStore.open({ root });
      const error = await within5s(repaErrorOf(store.read('sock')));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/not a regular file/);
    });

    it('refuses a save whose target is a FIFO with invalid_request and leaves the FIFO', async () => {
      const root = await folder();
      const pipe = mkfifo(join(root, 'pipe.md'));
      const store = await ContentStore.open({ root });
      for (const expectedVersion of [null, 'a'.repeat(64)]) {
        const save = store.save([{ target: 'pipe.md', content: bytes('x'), expectedVersion }]);
        const error = await within5s(repaErrorOf(save));
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(/not a regular file/);
      }
      expect((await lstat(pipe)).isFIFO()).toBe(true);
      expect(await userEntries(root)).toEqual(['pipe.md']);
    });

    it('refuses granted outside materials that are a device or a FIFO', async () => {
      const root = await folder();
      const outside = await folder();
      const pipe = mkfifo(join(outside, 'pipe'));
      const appDirectory = await folder({
        'repa-content-access.json': JSON.stringify({
          format: 'repa.content-access/1',
          materials: { null: { path: '/dev/null' }, pipe: { path: pipe } },
        }),
      });
      const store = await ContentStore.open({ root, appDirectory });
      for (const id of ['null', 'pipe']) {
        const error = await within5s(repaErrorOf(store.read(`repa:material/${id}`)));
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(/not a regular file/);
      }
    });

    it('checkChanges reports a read file replaced by a FIFO as deleted without opening it', async () => {
      const root = await folder({ 'a.md': 'a\n' });
      const { fs, opened } = recordingFs();
      const store = await ContentStore.open({ root, fs });
      const observer = new ContentObserver(store);
      const snapshot = await store.read('a.md');
      observer.recordRead(snapshot, { partial: false });
      await unlink(join(root, 'a.md'));
      mkfifo(join(root, 'a.md'));
      opened.length = 0;
      const report = await within5s(observer.checkChanges('diff'));
      expect(report.changes).toEqual([
        expect.objectContaining({ target: 'a.md', kind: 'deleted', version: null }),
      ]);
      expect(opened).toEqual([]);
    });
  });

  describe('files over the read limit (256 MiB)', () => {
    const TIB = 2 ** 40;

    it('refuses to read a sparse terabyte file with file_too_large, from its size alone', async () => {
      const root = await folder({ 'huge.bin': '' });
      await truncate(join(root, 'huge.bin'), TIB);
      const store = await ContentStore.open({ root });
      const error = await within5s(repaErrorOf(store.read('huge.bin')));
      expect(error.code).toBe('file_too_large');
      expect(error.message).toBe(
        '"huge.bin" is 1099511627776 bytes, over the limit of 268435456 bytes (256 MiB) that Repa reads or saves at once.',
      );
      expect(error.details).toEqual({ bytes: TIB, limit: 268435456 });
    });

    it('checkChanges reports a read file grown past the limit as modified, too large to compare, and forgets it', async () => {
      const root = await folder({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const store = await ContentStore.open({ root });
      const observer = new ContentObserver(store);
      for (const path of ['a.md', 'b.md']) {
        observer.recordRead(await store.read(path), { partial: false });
      }
      await truncate(join(root, 'a.md'), TIB);
      const report = await within5s(observer.checkChanges('diff'));
      expect(report.changes).toEqual([
        {
          target: 'a.md',
          identity: expect.stringMatching(/^repa:document\//),
          kind: 'modified',
          previousVersion: expect.stringMatching(/^[0-9a-f]{64}$/),
          version: null,
          form: 'location',
          hint: "The file is too large to compare (1099511627776 bytes, over Repa's read limit of 268435456 bytes).",
          bytes: TIB,
        },
      ]);
      expect(observer.list().map((seen) => seen.target)).toEqual(['b.md']);
      expect(await observer.checkChanges('diff')).toEqual({ changes: [] });
    });
  });

  describe('damaged Repa data', () => {
    it('reports a damaged identity index as data_corrupt and leaves its bytes', async () => {
      const root = await folder({ '.repa/identities.json': '{ "format": "nope" }' });
      const error = await repaErrorOf(ContentStore.open({ root }));
      expect(error.code).toBe('data_corrupt');
      expect(error.message).toContain(join(root, '.repa/identities.json'));
      expect(error.fix).toContain(join(root, '.repa/identities.json'));
      expect(await readFile(join(root, '.repa/identities.json'), 'utf8')).toBe(
        '{ "format": "nope" }',
      );
    });

    it('reports a damaged grants file as data_corrupt and leaves its bytes', async () => {
      const root = await folder();
      const appDirectory = await folder({ 'repa-content-access.json': '{"materials": 1' });
      const file = join(appDirectory, 'repa-content-access.json');
      const store = await ContentStore.open({ root, appDirectory });
      const error = await repaErrorOf(store.read('repa:material/p'));
      expect(error.code).toBe('data_corrupt');
      expect(error.message).toContain(file);
      expect(error.fix).toContain(file);
      expect(await readFile(file, 'utf8')).toBe('{"materials": 1');
    });

    it('reports an identity index or log larger than its bound as data_corrupt, from its size', async () => {
      for (const [file, bound] of [
        ['identities.json', 33554432],
        ['identities.log', 67108864],
      ] as const) {
        const root = await folder({ 'keep.md': 'k' });
        await mkdir(join(root, '.repa'));
        await writeFile(join(root, '.repa', file), '');
        await truncate(join(root, '.repa', file), 2 ** 40);
        const error = await within5s(repaErrorOf(ContentStore.open({ root })));
        expect(error.code, file).toBe('data_corrupt');
        expect(error.message, file).toContain(`it is larger than ${bound} bytes`);
      }
    });

    it('quarantines an intent record larger than any save, from its size', async () => {
      const root = await folder({ 'a.md': 'a' });
      await mkdir(join(root, '.repa/intents'), { recursive: true });
      await writeFile(join(root, '.repa/intents/op-huge.json'), '');
      await truncate(join(root, '.repa/intents/op-huge.json'), 1.5 * 2 ** 30);
      const store = await within5s(ContentStore.open({ root }));
      expect(store.recovered).toEqual([
        {
          operationId: 'op-huge',
          outcome: 'quarantined',
          receipts: [],
          reason: 'The record is larger than 374691160 bytes, more than any save writes.',
        },
      ]);
    });

    it('refuses a save of more bytes than the store reads back with file_too_large, writing nothing', async () => {
      const root = await folder({ 'a.md': 'a' });
      const store = await ContentStore.open({ root });
      const content = Buffer.alloc(256 * 1024 * 1024 + 1);
      const error = await repaErrorOf(
        store.save([{ target: 'big.bin', content, expectedVersion: null }]),
      );
      expect(error.code).toBe('file_too_large');
      expect(await userEntries(root)).toEqual(['a.md']);
    });

    it('reports an identity index that is a FIFO as data_corrupt without waiting', async () => {
      const root = await folder({ 'keep.md': 'k' });
      await mkdir(join(root, '.repa'));
      mkfifo(join(root, '.repa/identities.json'));
      const error = await within5s(repaErrorOf(ContentStore.open({ root })));
      expect(error.code).toBe('data_corrupt');
      expect(error.message).toMatch(/not a regular file/);
    });
  });
});
