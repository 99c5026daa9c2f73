import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordingSyncDirFs } from '@repa/durable-fs/testing';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { readTextTree, tempSpaces } from '../test/temp-space.js';
import { ContentStore } from './content-store.js';

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

const bytes = (text: string) => Buffer.from(text, 'utf8');

const space = tempSpaces();

describe('ContentStore', () => {
  describe('open', () => {
    it('refuses a missing space folder with not_found', async () => {
      const root = await space();
      const error = await repaErrorOf(ContentStore.open({ root: join(root, 'missing') }));
      expect(error.code).toBe('not_found');
    });

    it('refuses a damaged identity index with data_corrupt and leaves it as it is', async () => {
      const root = await space({ '.repa/identities.json': '{ broken' });
      const error = await repaErrorOf(ContentStore.open({ root }));
      expect(error.code).toBe('data_corrupt');
      expect(await readFile(join(root, '.repa/identities.json'), 'utf8')).toBe('{ broken');
    });

    it('fsyncs the space folder when it creates .repa/ (at the first read), also when the files are in a subfolder', async () => {
      const root = await space({ 'notes/a.md': 'a\n' });
      const { fs, synced } = recordingSyncDirFs();
      const store = await ContentStore.open({ root, fs });
      const a = await store.read('notes/a.md');
      // The save's own folder fsyncs cover notes/ only: the space folder holds the new .repa/.
      await store.save([
        { target: 'notes/a.md', content: bytes('A\n'), expectedVersion: a.version },
      ]);
      expect(existsSync(join(root, '.repa'))).toBe(true);
      expect(synced).toContain(root);
      expect(synced).toContain(join(root, '.repa'));
    });

    it('makes .repa/ again and fsyncs the space folder on the next try when that fsync failed', async () => {
      const root = await space({ 'a.md': 'a\n' });
      const { fs, synced } = recordingSyncDirFs(root);
      const store = await ContentStore.open({ root, fs });
      expect((await repaErrorOf(store.read('a.md'))).code).toBe('io_error');
      expect(existsSync(join(root, '.repa'))).toBe(false);
      await store.read('a.md');
      expect(existsSync(join(root, '.repa'))).toBe(true);
      expect(synced).toContain(root);
    });
  });

  describe('read', () => {
    it('returns the bytes with their sha256 version and a stable identity', async () => {
      const root = await space({ 'notes/a.md': 'hello\n' });
      const store = await ContentStore.open({ root });
      const first = await store.read('notes/a.md');
      expect(first).toMatchObject({
        target: 'notes/a.md',
        version: sha('hello\n'),
        outside: false,
      });
      expect(first.bytes.toString()).toBe('hello\n');
      expect(first.identity).toMatch(/^repa:document\/[0-9a-f-]{36}$/);
      expect((await store.read('./notes//a.md')).identity).toBe(first.identity);
      const reopened = await ContentStore.open({ root });
      expect((await reopened.read(first.identity)).target).toBe('notes/a.md');
    });

    it('answers not_found for a missing file and an unknown identity', async () => {
      const store = await ContentStore.open({ root: await space() });
      expect((await repaErrorOf(store.read('nope.md'))).code).toBe('not_found');
      expect((await repaErrorOf(store.read('repa:document/unknown'))).code).toBe('not_found');
      expect((await repaErrorOf(store.read('repa:thing/x'))).code).toBe('invalid_request');
    });

    it('refuses to read a folder', async () => {
      const store = await ContentStore.open({ root: await space({ 'dir/a.md': 'x' }) });
      expect((await repaErrorOf(store.read('dir'))).code).toBe('invalid_request');
    });
  });

  describe('outside materials', () => {
    it('reads a granted outside file by its material identity, and never saves it', async () => {
      const root = await space();
      const outside = await space({ 'paper.txt': 'outside text' });
      const appDirectory = await space({
        'repa-content-access.json': JSON.stringify({
          format: 'repa.content-access/1',
          materials: { paper1: { path: join(outside, 'paper.txt') } },
        }),
      });
      const store = await ContentStore.open({ root, appDirectory });
      const snapshot = await store.read('repa:material/paper1');
      expect(snapshot).toMatchObject({ outside: true, identity: 'repa:material/paper1' });
      expect(snapshot.bytes.toString()).toBe('outside text');
      const error = await repaErrorOf(
        store.save([
          {
            target: 'repa:material/paper1',
            content: bytes('x'),
            expectedVersion: snapshot.version,
          },
        ]),
      );
      expect(error.code).toBe('path_outside_space');
      expect(await readFile(join(outside, 'paper.txt'), 'utf8')).toBe('outside text');
      // The outside path itself is never accepted as an address.
      expect((await repaErrorOf(store.read(join(outside, 'paper.txt')))).code).toBe(
        'path_outside_space',
      );
    });

    it('refuses a grant limited to other spaces as not granted here, and reports a damaged grants file', async () => {
      const root = await space();
      const appDirectory = await space({
        'repa-content-access.json': JSON.stringify({
          format: 'repa.content-access/1',
          materials: { p: { path: '/etc/hostname', spaces: ['/somewhere/else'] } },
        }),
      });
      const store = await ContentStore.open({ root, appDirectory });
      const error = await repaErrorOf(store.read('repa:material/p'));
      expect(error.code).toBe('material_not_granted');
      expect(error.message).toBe(
        'The material repa:material/p is granted to other spaces, not to this one.',
      );
      expect(error.fix).toContain('repa-content-access.json');
      expect((await repaErrorOf(store.read('repa:material/nope'))).code).toBe('not_found');
      await writeFile(join(appDirectory, 'repa-content-access.json'), '[');
      expect((await repaErrorOf(store.read('repa:material/p'))).code).toBe('data_corrupt');
    });
  });

  describe('recovery', () => {
    it('rolls a save forward on open when a crash left it after its first rename', async () => {
      const root = await space({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const crashing = await ContentStore.open({
        root,
        hooks: {
          step: (step) => {
            if (step === 'renamed') throw new Error('simulated crash after the first rename');
          },
        },
      });
      const a = await crashing.read('a.md');
      const b = await crashing.read('b.md');
      const error = await repaErrorOf(
        crashing.save(
          [
            { target: 'a.md', content: bytes('A\n'), expectedVersion: a.version },
            { target: 'b.md', content: bytes('B\n'), expectedVersion: b.version },
          ],
          { operationId: 'op-x' },
        ),
      );
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ applied: ['a.md'], pending: ['b.md'] });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'A\n', 'b.md': 'b\n' });
      const reopened = await ContentStore.open({ root });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'A\n', 'b.md': 'B\n' });
      expect(await reopened.listRecoverable()).toEqual([]);
      expect(await readdir(join(root, '.repa/intents'))).toEqual([]);
    });

    it('does not count a no-op change as the commit point', async () => {
      const root = await space({ 'same.md': 's\n', 'b.md': 'b\n' });
      await mkdir(join(root, '.repa/intents'), { recursive: true });
      const change = (target: string, from: string, to: string) => ({
        target,
        identity: `repa:document/${target.replace('.', '-')}`,
        previousVersion: sha(from),
        version: sha(to),
        content: bytes(to).toString('base64'),
        temp: `.${target}.repa-tmp-op-noop-0`,
        mode: null,
        createdDirs: [],
      });
      const record = {
        format: 'repa.content-intent/1',
        operationId: 'op-noop',
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'pending',
        changes: [change('same.md', 's\n', 's\n'), change('b.md', 'b\n', 'B\n')],
      };
      await writeFile(join(root, '.repa/intents/op-noop.json'), JSON.stringify(record));
      const store = await ContentStore.open({ root });
      expect(await readTextTree(root)).toEqual({ 'same.md': 's\n', 'b.md': 'b\n' });
      expect((await store.listRecoverable()).map((entry) => entry.operationId)).toEqual([
        'op-noop',
      ]);
    });

    it('keeps a save that never reached disk as a recoverable record until discarded', async () => {
      const root = await space({ 'a.md': 'a\n' });
      await mkdir(join(root, '.repa/intents'), { recursive: true });
      const record = {
        format: 'repa.content-intent/1',
        operationId: 'op-lost',
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'pending',
        changes: [
          {
            target: 'a.md',
            identity: 'repa:document/x1',
            previousVersion: sha('a\n'),
            version: sha('A\n'),
            content: bytes('A\n').toString('base64'),
            temp: '.a.md.repa-tmp-op-lost-0',
            mode: null,
            createdDirs: [],
          },
        ],
      };
      await writeFile(join(root, '.repa/intents/op-lost.json'), JSON.stringify(record));
      await writeFile(join(root, '.a.md.repa-tmp-op-lost-0'), 'A');
      const store = await ContentStore.open({ root });
      expect(await readTextTree(root)).toEqual({ 'a.md': 'a\n' });
      const [recoverable] = await store.listRecoverable();
      expect(recoverable).toMatchObject({
        operationId: 'op-lost',
        changes: [{ target: 'a.md', applied: false, version: sha('A\n') }],
      });
      await store.discardRecoverable('op-lost');
      expect(await store.listRecoverable()).toEqual([]);
      expect((await repaErrorOf(store.discardRecoverable('op-lost'))).code).toBe('not_found');
    });
  });
});
