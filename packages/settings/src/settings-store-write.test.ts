import { mkdir, readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { makeTempSpace } from './test/temp-space.js';
import { numberedRegistry, testRegistry } from './test/test-registry.js';

describe('SettingsStore', () => {
  describe('set', () => {
    it('refuses an unknown key with invalid_request and writes nothing', async () => {
      const t = await makeTempSpace();
      const error = await repaErrorOf(
        t.store().set({ level: 'application', key: 'prompts.nope', value: 'x' }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain("'prompts.nope'");
      expect(error.details).toEqual({ key: 'prompts.nope' });
      await expect(readFile(t.appFile)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses a wrongly-typed value with invalid_request naming the key', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      for (const [key, value] of [
        ['prompts.skillCatalog', 'yes'],
        ['prompts.append', null],
        ['prompts.fileChanges', 'always'],
        ['prompts.base', 42],
        ['prompts.append', undefined],
      ] as const) {
        const error = await repaErrorOf(store.set({ level: 'application', key, value }));
        expect(error.code).toBe('invalid_request');
        expect(error.message).toContain(`'${key}'`);
        expect(error.details?.key).toBe(key);
      }
      await expect(readFile(t.appFile)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses values that are not JSON data or carry forbidden keys', async () => {
      const t = await makeTempSpace();
      const store = t.store(testRegistry);
      const poisoned = JSON.parse('["ok"]');
      poisoned.push(JSON.parse('{"__proto__": 1}'));
      for (const value of [[Number.NaN], poisoned, [() => 1]]) {
        const error = await repaErrorOf(
          store.set({ level: 'application', key: 'test.tags', value }),
        );
        expect(error.code).toBe('invalid_request');
      }
    });

    it('stores each fileChanges mode', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      for (const mode of ['off', 'on-demand', 'notice', 'diff']) {
        const item = await store.set({
          level: 'application',
          key: 'prompts.fileChanges',
          value: mode,
        });
        expect(item.value).toBe(mode);
      }
    });

    it('refuses space and session levels without the scope they need', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const key = 'prompts.append';
      const cases = [
        { level: 'space', key, value: '' },
        { level: 'session', key, value: '', space: t.space },
        { level: 'session', key, value: '', sessionId: 's1' },
        { level: 'everywhere', key, value: '', space: t.space },
        { level: 'session', key, value: '', space: t.space, sessionId: '__proto__' },
        { level: 'session', key, value: '', space: t.space, sessionId: 'x'.repeat(201) },
        { level: 'application', key, value: '', expectedRevision: -1 },
      ] as const;
      for (const input of cases) {
        // @ts-expect-error -- the wrong level is part of what is tested
        const error = await repaErrorOf(store.set(input));
        expect(error.code).toBe('invalid_request');
      }
    });

    it('refuses a space folder that does not exist and does not create it', async () => {
      const t = await makeTempSpace();
      const missing = join(t.root, 'missing-space');
      const error = await repaErrorOf(
        t.store().set({ level: 'space', space: missing, key: 'prompts.append', value: 'x' }),
      );
      expect(error.code).toBe('not_found');
      await expect(readFile(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('writes the versioned file format with no temp file or lock left behind', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      await store.set({ level: 'application', key: 'prompts.append', value: 'A' });
      await store.set({ level: 'space', space: t.space, key: 'prompts.environment', value: false });
      await store.set({
        level: 'session',
        space: t.space,
        sessionId: 's1',
        key: 'prompts.base',
        value: '',
      });
      expect(await t.readJson(t.appFile)).toEqual({
        version: 1,
        revision: 1,
        items: { 'prompts.append': { value: 'A', revision: 1 } },
      });
      expect(await t.readJson(t.spaceFile)).toEqual({
        version: 1,
        space: { revision: 1, items: { 'prompts.environment': { value: false, revision: 1 } } },
        sessions: { s1: { revision: 1, items: { 'prompts.base': { value: '', revision: 1 } } } },
      });
      expect(await t.siblings(t.appFile)).toEqual(['repa-settings.json']);
      expect(await t.siblings(t.spaceFile)).toEqual(['.gitignore', 'settings.json']);
    });
  });

  describe('revisions', () => {
    it('stamps each write with the next value of its scope counter and never goes back', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const app = { level: 'application' } as const;
      expect((await store.set({ ...app, key: 'prompts.append', value: 'a' })).revisions).toEqual({
        application: 1,
      });
      expect((await store.set({ ...app, key: 'prompts.base', value: 'b' })).revisions).toEqual({
        application: 2,
      });
      const reset = await store.reset({ ...app, key: 'prompts.append' });
      expect(reset.revisions.application).toBe(3);
      expect(reset.overrides).toEqual({});
      expect(await t.readJson(t.appFile)).toMatchObject({
        revision: 3,
        items: { 'prompts.append': { reset: true, revision: 3 } },
      });
      const again = await store.set({ ...app, key: 'prompts.append', value: 'c' });
      expect(again.overrides.application).toEqual({ value: 'c', revision: 4 });
    });

    it('keeps separate counters for the space and each session', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const key = 'prompts.append';
      await store.set({ level: 'space', space: t.space, key, value: '1' });
      await store.set({ level: 'space', space: t.space, key, value: '2' });
      await store.set({ level: 'session', space: t.space, sessionId: 's1', key, value: '3' });
      const s2 = await store.set({
        level: 'session',
        space: t.space,
        sessionId: 's2',
        key,
        value: '',
      });
      expect(s2.revisions).toEqual({ application: 0, space: 2, session: 1 });
      const run = await store.resolveForRun(t.space, 's1');
      expect(run.revisions).toEqual({ application: 0, space: 2, session: 1 });
    });

    it('treats a reset without an override as a no-op that writes nothing', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const item = await store.reset({ level: 'application', key: 'prompts.append' });
      expect(item).toMatchObject({ source: 'default', revisions: { application: 0 } });
      await expect(readFile(t.appFile)).rejects.toMatchObject({ code: 'ENOENT' });
      await store.set({ level: 'application', key: 'prompts.append', value: 'x' });
      await store.reset({ level: 'application', key: 'prompts.append' });
      const before = await readFile(t.appFile);
      const twice = await store.reset({ level: 'application', key: 'prompts.append' });
      expect(twice.revisions.application).toBe(2);
      expect(await readFile(t.appFile)).toEqual(before);
    });
  });

  describe('expectedRevision', () => {
    it('accepts the current revision, 0 for an item never written', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const key = 'prompts.append';
      const first = await store.set({ level: 'application', key, value: 'a', expectedRevision: 0 });
      const second = await store.set({
        level: 'application',
        key,
        value: 'b',
        expectedRevision: first.revisions.application,
      });
      expect(second.value).toBe('b');
      const reset = await store.reset({
        level: 'application',
        key,
        expectedRevision: second.revisions.application,
      });
      expect(reset.revisions.application).toBe(3);
      const afterReset = await store.set({
        level: 'application',
        key,
        value: 'c',
        expectedRevision: 3,
      });
      expect(afterReset.revisions.application).toBe(4);
    });

    it('refuses a stale revision with stale_version and changes nothing', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const scope = { space: t.space, sessionId: 's1' };
      const key = 'prompts.learningContext';
      await store.set({ level: 'session', ...scope, key, value: false });
      await store.set({ level: 'session', ...scope, key, value: true });
      const before = await readFile(t.spaceFile);
      for (const call of [
        () => store.set({ level: 'session', ...scope, key, value: false, expectedRevision: 1 }),
        () => store.reset({ level: 'session', ...scope, key, expectedRevision: 0 }),
        () => store.reset({ level: 'session', ...scope, key, expectedRevision: 3 }),
      ]) {
        const error = await repaErrorOf(call());
        expect(error.code).toBe('stale_version');
        expect(error.details).toMatchObject({ key, level: 'session', currentRevision: 2 });
      }
      expect(await readFile(t.spaceFile)).toEqual(before);
    });

    it('compares with the item revision, not the scope counter', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      await store.set({ level: 'application', key: 'prompts.base', value: 'x' });
      const item = await store.set({
        level: 'application',
        key: 'prompts.append',
        value: 'y',
        expectedRevision: 0,
      });
      expect(item.revisions.application).toBe(2);
    });
  });

  describe('concurrency within one process', () => {
    it('keeps every write of concurrent calls from two store instances', async () => {
      const t = await makeTempSpace();
      const registry = numberedRegistry(40);
      const stores = [t.store(registry), t.store(registry)];
      await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          stores[index % 2]?.set({
            level: 'application',
            key: `test.item${index}`,
            value: `${index}`,
          }),
        ),
      );
      const items = (await t.store(registry).get()).filter((i) => i.key.startsWith('test.'));
      expect(items.map((i) => i.value)).toEqual(items.map((_, index) => `${index}`));
      const revisions = items.map((i) => i.revisions.application).sort((a, b) => a - b);
      expect(revisions).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    });

    it('takes over a lock left behind by a crashed process', async () => {
      const t = await makeTempSpace();
      const lock = `${t.appFile}.lock`;
      await mkdir(lock, { recursive: true });
      const longAgo = new Date(Date.now() - 60_000);
      await utimes(lock, longAgo, longAgo);
      const item = await t.store().set({ level: 'application', key: 'prompts.append', value: 'x' });
      expect(item.value).toBe('x');
      expect(await t.siblings(t.appFile)).toEqual(['repa-settings.json']);
    });
  });
});
