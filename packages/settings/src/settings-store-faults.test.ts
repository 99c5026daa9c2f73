import { readFile, writeFile } from 'node:fs/promises';
import { failingFs as failing } from '@repa/durable-fs/testing';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from './settings-store.js';
import { makeTempSpace, type TempSpace } from './test/temp-space.js';

const OLD_SPACE =
  '{"version":1,"space":{"revision":1,"items":{"prompts.append":{"value":"old","revision":1}}}}\n';
const OLD_APP =
  '{"version":1,"revision":1,"items":{"prompts.append":{"value":"old","revision":1}}}\n';

/** A space and an app directory that each hold a settings file setting `prompts.append` to "old". */
async function withOldFiles(): Promise<TempSpace> {
  const t = await makeTempSpace();
  await t.store().set({ level: 'application', key: 'prompts.base', value: null });
  await writeFile(t.appFile, OLD_APP);
  await t.store().set({ level: 'space', space: t.space, key: 'prompts.base', value: null });
  await writeFile(t.spaceFile, OLD_SPACE);
  return t;
}

describe('SettingsStore on a failing file system', () => {
  for (const [method, code] of [
    ['sync', 'EIO'],
    ['write', 'ENOSPC'],
    ['rename', 'EIO'],
  ] as const) {
    it(`a failed ${method} (${code}) of a space write leaves the old file and no temp file`, async () => {
      const t = await withOldFiles();
      const { fs, failed } = failing(method, code);
      const store = new SettingsStore({ appDirectory: t.appDirectory, fs, isTrusted: () => true });
      const error = await repaErrorOf(
        store.set({ level: 'space', space: t.space, key: 'prompts.append', value: 'new' }),
      );
      expect(failed).toContain(method);
      expect(error.code).toBe('io_error');
      expect(error.details).toMatchObject({ errno: code });
      expect(await readFile(t.spaceFile, 'utf8')).toBe(OLD_SPACE);
      expect(await t.siblings(t.spaceFile)).toEqual(['.gitignore', 'settings.json']);
    });
  }

  it('a failed rename of an application write leaves the old file', async () => {
    const t = await withOldFiles();
    const { fs, failed } = failing('rename', 'EIO');
    const store = new SettingsStore({ appDirectory: t.appDirectory, fs, isTrusted: () => true });
    const error = await repaErrorOf(
      store.set({ level: 'application', key: 'prompts.append', value: 'new' }),
    );
    expect(failed).toEqual(['rename']);
    expect(error.code).toBe('io_error');
    expect(error.message).toContain(t.appFile);
    expect(await readFile(t.appFile, 'utf8')).toBe(OLD_APP);
    expect(await t.siblings(t.appFile)).toEqual(['repa-settings.json']);
  });

  it('a failed read (EIO) is io_error naming the file, not an empty document', async () => {
    const t = await withOldFiles();
    const { fs } = failing('readAt', 'EIO');
    const store = new SettingsStore({ appDirectory: t.appDirectory, fs, isTrusted: () => true });
    const error = await repaErrorOf(store.get({ space: t.space }));
    expect(error.code).toBe('io_error');
    expect(error.details).toMatchObject({ errno: 'EIO' });
  });

  for (const code of ['EINVAL', 'ENOTSUP', 'EOPNOTSUPP']) {
    it(`a folder fsync refused with ${code} still saves (the one durable-fs policy)`, async () => {
      const t = await withOldFiles();
      const { fs, failed } = failing('syncDir', code);
      const store = new SettingsStore({ appDirectory: t.appDirectory, fs, isTrusted: () => true });
      await store.set({ level: 'space', space: t.space, key: 'prompts.append', value: 'new' });
      expect(failed).toEqual(['syncDir']);
      const items = await new SettingsStore({
        appDirectory: t.appDirectory,
        isTrusted: () => true,
      }).get({
        space: t.space,
      });
      expect(items.find((item) => item.key === 'prompts.append')?.value).toBe('new');
    });
  }

  it('a folder fsync failing with EIO is io_error after the rename', async () => {
    const t = await withOldFiles();
    const { fs } = failing('syncDir', 'EIO');
    const store = new SettingsStore({ appDirectory: t.appDirectory, fs, isTrusted: () => true });
    const error = await repaErrorOf(
      store.set({ level: 'space', space: t.space, key: 'prompts.append', value: 'new' }),
    );
    expect(error.code).toBe('io_error');
    expect(error.details).toMatchObject({ errno: 'EIO' });
  });
});
