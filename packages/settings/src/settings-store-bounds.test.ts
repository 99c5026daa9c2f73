import { execFileSync } from 'node:child_process';
import { mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { SETTINGS_FILE_LIMIT } from './settings-file.js';
import { makeTempSpace } from './test/temp-space.js';

/** The promise, or a failure once it has not settled within 5 s (a read waiting on a FIFO). */
function within5s<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('still waiting after 5 s')), 5_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('SettingsStore on settings files past their bounds', () => {
  it('refuses a 64 MiB space settings file with data_too_large naming it and the limit', async () => {
    const t = await makeTempSpace();
    await mkdir(`${t.space}/.repa`);
    await writeFile(t.spaceFile, '{"version":1}');
    await truncate(t.spaceFile, 64 * 1024 * 1024); // sparse: valid JSON, then NULs
    const error = await repaErrorOf(t.store().get({ space: t.space }));
    expect(error).toMatchObject({
      code: 'data_too_large',
      details: { path: t.spaceFile, size: 64 * 1024 * 1024, limit: SETTINGS_FILE_LIMIT },
    });
    expect(error.message).toContain(t.spaceFile);
  });

  it('refuses a FIFO as the application settings file at once with settings_corrupt', async () => {
    const t = await makeTempSpace();
    await mkdir(t.appDirectory);
    execFileSync('mkfifo', [t.appFile]);
    const error = await within5s(repaErrorOf(t.store().get({})));
    expect(error).toMatchObject({ code: 'settings_corrupt' });
    expect(error.message).toContain('not a regular file');
  });

  it('refuses a write that would make the file pass the limit, leaving it as it was', async () => {
    const t = await makeTempSpace();
    const store = t.store();
    await store.set({ level: 'space', space: t.space, key: 'prompts.append', value: 'short' });
    const before = await readFile(t.spaceFile, 'utf8');
    const error = await repaErrorOf(
      store.set({
        level: 'space',
        space: t.space,
        key: 'prompts.base',
        value: 'x'.repeat(SETTINGS_FILE_LIMIT),
      }),
    );
    expect(error).toMatchObject({
      code: 'invalid_request',
      details: { limit: SETTINGS_FILE_LIMIT },
    });
    expect(await readFile(t.spaceFile, 'utf8')).toBe(before);
  });
});
