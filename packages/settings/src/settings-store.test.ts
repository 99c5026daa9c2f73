import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promptSettingsSchema, RepaError, runInfoSchema } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { settingsRegistry } from './settings-registry.js';
import { makeTempSpace } from './test/temp-space.js';
import { numberedRegistry, testRegistry } from './test/test-registry.js';

async function rejection(promise: Promise<unknown>): Promise<RepaError> {
  try {
    await promise;
  } catch (error) {
    if (RepaError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('SettingsStore', () => {
  describe('get', () => {
    it('returns every registry item at its default when no file exists', async () => {
      const t = await makeTempSpace();
      const items = await t.store().get();
      expect(items.map((item) => item.key)).toEqual(settingsRegistry.items.map((i) => i.key));
      for (const item of items) {
        expect(item.source).toBe('default');
        expect(item.value).toEqual(item.defaultValue);
        expect(item.overrides).toEqual({});
        expect(item.revisions).toEqual({ application: 0 });
      }
    });

    it('reports space and session revisions only when the scope names them', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const [inSpace] = await store.get({ space: t.space });
      expect(inSpace?.revisions).toEqual({ application: 0, space: 0 });
      const [inSession] = await store.get({ space: t.space, sessionId: 's1' });
      expect(inSession?.revisions).toEqual({ application: 0, space: 0, session: 0 });
    });

    it('refuses a sessionId without a space, and a relative space', async () => {
      const t = await makeTempSpace();
      expect((await rejection(t.store().get({ sessionId: 's1' }))).code).toBe('invalid_request');
      expect((await rejection(t.store().get({ space: 'relative/space' }))).code).toBe(
        'invalid_request',
      );
    });
  });

  describe('resolution order', () => {
    it('resolves default < application < space < session and reports each override', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const scope = { space: t.space, sessionId: 's1' };
      const key = 'prompts.append';
      await store.set({ level: 'application', key, value: 'from app' });
      expect((await store.get(scope)).find((i) => i.key === key)).toMatchObject({
        value: 'from app',
        source: 'application',
      });
      await store.set({ level: 'space', ...scope, key, value: 'from space' });
      expect((await store.get(scope)).find((i) => i.key === key)).toMatchObject({
        value: 'from space',
        source: 'space',
      });
      await store.set({ level: 'session', ...scope, key, value: 'from session' });
      const item = (await store.get(scope)).find((i) => i.key === key);
      expect(item).toEqual({
        key,
        value: 'from session',
        source: 'session',
        defaultValue: '',
        overrides: {
          application: { value: 'from app', revision: 1 },
          space: { value: 'from space', revision: 1 },
          session: { value: 'from session', revision: 1 },
        },
        revisions: { application: 1, space: 1, session: 1 },
      });
      const otherSession = (await store.get({ space: t.space, sessionId: 's2' })).find(
        (i) => i.key === key,
      );
      expect(otherSession).toMatchObject({ value: 'from space', source: 'space' });
      const appOnly = (await store.get()).find((i) => i.key === key);
      expect(appOnly).toMatchObject({ value: 'from app', source: 'application' });
    });
  });

  describe('explicit empty overrides', () => {
    it('"" overrides a non-empty value and default, and reset brings the default back', async () => {
      const t = await makeTempSpace();
      const store = t.store(testRegistry);
      const set = await store.set({ level: 'application', key: 'test.note', value: '' });
      expect(set).toMatchObject({ value: '', source: 'application', defaultValue: 'default note' });
      const reset = await store.reset({ level: 'application', key: 'test.note' });
      expect(reset).toMatchObject({ value: 'default note', source: 'default', overrides: {} });
    });

    it('"" at the session level overrides an application prompts.append', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      await store.set({ level: 'application', key: 'prompts.append', value: 'Be brief.' });
      const scope = { space: t.space, sessionId: 's1' };
      await store.set({ level: 'session', ...scope, key: 'prompts.append', value: '' });
      const run = await store.resolveForRun(t.space, 's1');
      expect(run.promptSettings.append).toBe('');
      expect(run.sources.append).toBe('session');
      await store.reset({ level: 'session', ...scope, key: 'prompts.append' });
      expect((await store.resolveForRun(t.space, 's1')).promptSettings.append).toBe('Be brief.');
    });

    it('false overrides a true default, and reset brings the default back', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const set = await store.set({
        level: 'space',
        space: t.space,
        key: 'prompts.skillCatalog',
        value: false,
      });
      expect(set).toMatchObject({ value: false, source: 'space', defaultValue: true });
      expect(set.overrides.space).toEqual({ value: false, revision: 1 });
      const reset = await store.reset({
        level: 'space',
        space: t.space,
        key: 'prompts.skillCatalog',
      });
      expect(reset).toMatchObject({ value: true, source: 'default', overrides: {} });
    });

    it('[] overrides a non-empty list default, and reset brings the default back', async () => {
      const t = await makeTempSpace();
      const store = t.store(testRegistry);
      const set = await store.set({ level: 'application', key: 'test.tags', value: [] });
      expect(set).toMatchObject({
        value: [],
        source: 'application',
        defaultValue: ['alpha', 'beta'],
      });
      expect(await t.readJson(t.appFile)).toMatchObject({
        items: { 'test.tags': { value: [], revision: 1 } },
      });
      const reset = await store.reset({ level: 'application', key: 'test.tags' });
      expect(reset).toMatchObject({ value: ['alpha', 'beta'], source: 'default' });
    });

    it('null for prompts.base at a higher level brings the built-in base back', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      await store.set({ level: 'application', key: 'prompts.base', value: 'My base.' });
      await store.set({ level: 'space', space: t.space, key: 'prompts.base', value: null });
      const run = await store.resolveForRun(t.space, 's1');
      expect(run.promptSettings.base).toBeNull();
      expect(run.sources.base).toBe('space');
    });
  });

  describe('set', () => {
    it('refuses an unknown key with invalid_request and writes nothing', async () => {
      const t = await makeTempSpace();
      const error = await rejection(
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
        const error = await rejection(store.set({ level: 'application', key, value }));
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
        const error = await rejection(store.set({ level: 'application', key: 'test.tags', value }));
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
        const error = await rejection(store.set(input));
        expect(error.code).toBe('invalid_request');
      }
    });

    it('refuses a space folder that does not exist and does not create it', async () => {
      const t = await makeTempSpace();
      const missing = join(t.root, 'missing-space');
      const error = await rejection(
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
        const error = await rejection(call());
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

  describe('forward compatibility', () => {
    it('preserves unknown items and fields on rewrite and ignores them for resolution', async () => {
      const t = await makeTempSpace();
      const newer = {
        version: 1,
        writtenBy: 'repa 9',
        revision: 7,
        items: {
          'prompts.futureThing': { value: { deep: [1, 2] }, revision: 7, note: 'x' },
          'prompts.append': { value: 'kept', revision: 3, extra: true },
        },
      };
      await mkdir(t.appDirectory);
      await writeFile(t.appFile, JSON.stringify(newer));
      const store = t.store();
      const items = await store.get();
      expect(items.map((i) => i.key)).not.toContain('prompts.futureThing');
      expect(items.find((i) => i.key === 'prompts.append')).toMatchObject({ value: 'kept' });
      const set = await store.set({ level: 'application', key: 'prompts.base', value: 'B' });
      expect(set.revisions.application).toBe(8);
      expect(await t.readJson(t.appFile)).toEqual({
        ...newer,
        revision: 8,
        items: { ...newer.items, 'prompts.base': { value: 'B', revision: 8 } },
      });
    });

    it('never hands out a revision at or below one already stored', async () => {
      const t = await makeTempSpace();
      await mkdir(t.appDirectory);
      const handEdited = {
        version: 1,
        revision: 1,
        items: { 'prompts.base': { value: 'x', revision: 5 } },
      };
      await writeFile(t.appFile, JSON.stringify(handEdited));
      const item = await t.store().set({ level: 'application', key: 'prompts.append', value: '' });
      expect(item.revisions.application).toBe(6);
    });
  });

  describe('resolveForRun', () => {
    it('returns the prompt settings, their sources and the scope counters', async () => {
      const t = await makeTempSpace();
      const store = t.store();
      const scope = { space: t.space, sessionId: 'run-session' };
      await store.set({ level: 'application', key: 'prompts.base', value: 'App base.' });
      await store.set({ level: 'application', key: 'prompts.fileChanges', value: 'diff' });
      await store.set({ level: 'space', space: t.space, key: 'prompts.fileChanges', value: 'off' });
      await store.set({
        level: 'session',
        ...scope,
        key: 'prompts.projectInstructions',
        value: true,
      });
      const run = await store.resolveForRun(t.space, 'run-session');
      expect(run).toEqual({
        promptSettings: {
          base: 'App base.',
          append: '',
          projectInstructions: true,
          skillCatalog: true,
          environment: true,
          learningContext: true,
          fileChanges: 'off',
          citations: true,
        },
        sources: {
          base: 'application',
          append: 'default',
          projectInstructions: 'session',
          skillCatalog: 'default',
          environment: 'default',
          learningContext: 'default',
          fileChanges: 'space',
          citations: 'default',
        },
        revisions: { application: 2, space: 1, session: 1 },
        modelSettings: {
          model: null,
          thinkingLevel: null,
          tools: null,
          bash: 'off',
          bashTimeoutSeconds: 120,
          edits: 'auto',
        },
        modelSources: {
          model: 'default',
          thinkingLevel: 'default',
          tools: 'default',
          bash: 'default',
          bashTimeoutSeconds: 'default',
          edits: 'default',
        },
      });
      expect(promptSettingsSchema.parse(run.promptSettings)).toEqual(run.promptSettings);
      expect(runInfoSchema.shape.settingsRevisions.parse(run.revisions)).toEqual(run.revisions);
    });

    it('refuses a relative space', async () => {
      const t = await makeTempSpace();
      expect((await rejection(t.store().resolveForRun('space', 's1'))).code).toBe(
        'invalid_request',
      );
    });
  });
});
