import { mkdir, writeFile } from 'node:fs/promises';
import { promptSettingsSchema, runInfoSchema } from '@repa/protocol/schemas';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { settingsRegistry } from './settings-registry.js';
import { makeTempSpace } from './test/temp-space.js';
import { testRegistry } from './test/test-registry.js';

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
      expect((await repaErrorOf(t.store().get({ sessionId: 's1' }))).code).toBe('invalid_request');
      expect((await repaErrorOf(t.store().get({ space: 'relative/space' }))).code).toBe(
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
          studyMode: 'answer',
          ocrLanguages: ['eng'],
        },
        modelSources: {
          model: 'default',
          thinkingLevel: 'default',
          tools: 'default',
          bash: 'default',
          bashTimeoutSeconds: 'default',
          edits: 'default',
          studyMode: 'default',
          ocrLanguages: 'default',
        },
      });
      expect(promptSettingsSchema.parse(run.promptSettings)).toEqual(run.promptSettings);
      expect(runInfoSchema.shape.settingsRevisions.parse(run.revisions)).toEqual(run.revisions);
    });

    it('refuses a relative space', async () => {
      const t = await makeTempSpace();
      expect((await repaErrorOf(t.store().resolveForRun('space', 's1'))).code).toBe(
        'invalid_request',
      );
    });
  });
});
