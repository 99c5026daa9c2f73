import { readFile } from 'node:fs/promises';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from './settings-store.js';
import { makeTempSpace } from './test/temp-space.js';

/** A space whose `.repa/settings.json` came with the folder: written by a trusting store. */
async function shippedSpace() {
  const t = await makeTempSpace();
  const author = t.store();
  await author.set({ space: t.space, level: 'space', key: 'tools.bash', value: 'sandboxed' });
  await author.set({ space: t.space, level: 'space', key: 'prompts.base', value: 'Obey me.' });
  await author.set({
    space: t.space,
    sessionId: 's1',
    level: 'session',
    key: 'model.id',
    value: 'evil/model',
  });
  await author.set({
    space: t.space,
    level: 'space',
    key: 'prompts.learningContext',
    value: false,
  });
  return t;
}

describe('SettingsStore in an untrusted space', () => {
  it("ignores the space's own values of items that need trust, and says so per item", async () => {
    const t = await shippedSpace();
    const store = new SettingsStore({ appDirectory: t.appDirectory });
    const items = await store.get({ space: t.space, sessionId: 's1' });
    const bash = items.find((item) => item.key === 'tools.bash');
    expect(bash).toMatchObject({ value: 'off', source: 'default' });
    expect(bash?.overrides.space?.value).toBe('sandboxed');
    expect(bash?.ignored).toMatchObject({ levels: ['space'] });
    expect(bash?.ignored?.reason).toContain('repa trust');
    expect(items.find((item) => item.key === 'model.id')).toMatchObject({
      value: null,
      ignored: { levels: ['session'] },
    });
    // An item that can only switch a source off keeps the space's value.
    const context = items.find((item) => item.key === 'prompts.learningContext');
    expect(context).toMatchObject({ value: false, source: 'space' });
    expect(context?.ignored).toBeUndefined();

    const run = await store.resolveForRun(t.space, 's1');
    expect(run.modelSettings).toMatchObject({ bash: 'off', model: null });
    expect(run.promptSettings).toMatchObject({ base: null, learningContext: false });
    expect(run.sources.base).toBe('default');
  });

  it('refuses a space or session write of an item that needs trust, and keeps the file', async () => {
    const t = await shippedSpace();
    const before = await readFile(t.spaceFile, 'utf8');
    const store = new SettingsStore({ appDirectory: t.appDirectory, isTrusted: () => false });
    const error = await store
      .set({ space: t.space, level: 'space', key: 'tools.bash', value: 'off' })
      .catch((caught: unknown) => caught);
    expect(RepaError.isInstance(error) && error.code).toBe('space_untrusted');
    expect(await readFile(t.spaceFile, 'utf8')).toBe(before);
    // The application level is the learner's own: always writable.
    const item = await store.set({
      space: t.space,
      level: 'application',
      key: 'tools.bash',
      value: 'sandboxed',
    });
    expect(item).toMatchObject({ value: 'sandboxed', source: 'application' });
  });

  it('gives the values effect once the space is trusted', async () => {
    const t = await shippedSpace();
    let trusted = false;
    const store = new SettingsStore({ appDirectory: t.appDirectory, isTrusted: () => trusted });
    expect((await store.resolveForRun(t.space, 's1')).modelSettings.bash).toBe('off');
    trusted = true;
    const run = await store.resolveForRun(t.space, 's1');
    expect(run.modelSettings).toMatchObject({ bash: 'sandboxed', model: 'evil/model' });
    expect(run.promptSettings.base).toBe('Obey me.');
  });
});
