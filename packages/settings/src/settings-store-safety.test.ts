import { existsSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateSettingsDocument } from './settings-file.js';
import { settingsRegistry } from './settings-registry.js';
import { makeTempSpace, type TempSpace } from './test/temp-space.js';

/** The error a promise rejects with (fails when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<{ code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string };
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** A folder outside the space holding one space settings file that sets `prompts.append`. */
async function outsideFolder(t: TempSpace): Promise<string> {
  const outside = join(t.root, 'outside');
  await mkdir(outside);
  const text =
    '{"version":1,"space":{"revision":1,"items":{"prompts.append":{"value":"outside","revision":1}}}}';
  await writeFile(join(outside, 'settings.json'), text);
  return outside;
}

const setAppend = (t: TempSpace, value: string) =>
  t.store().set({ level: 'space', space: t.space, key: 'prompts.append', value });

describe('SettingsStore', () => {
  describe('a .repa that is not a plain folder (space_unsafe)', () => {
    it('refuses to read space settings through a .repa symlink', async () => {
      const t = await makeTempSpace();
      await symlink(await outsideFolder(t), join(t.space, '.repa'));
      expect((await rejectionOf(t.store().get({ space: t.space }))).code).toBe('space_unsafe');
      expect((await rejectionOf(t.store().resolveForRun(t.space, 's1'))).code).toBe('space_unsafe');
    });

    it('refuses to write space settings through a .repa symlink and touches nothing', async () => {
      const t = await makeTempSpace();
      const outside = await outsideFolder(t);
      const before = await readFile(join(outside, 'settings.json'));
      await symlink(outside, join(t.space, '.repa'));
      expect((await rejectionOf(setAppend(t, 'inside'))).code).toBe('space_unsafe');
      expect(await readdir(outside)).toEqual(['settings.json']);
      expect(await readFile(join(outside, 'settings.json'))).toEqual(before);
      expect((await lstat(join(t.space, '.repa'))).isSymbolicLink()).toBe(true);
    });

    it('refuses an application-level write whose view reads a symlinked .repa', async () => {
      const t = await makeTempSpace();
      await symlink(await outsideFolder(t), join(t.space, '.repa'));
      const write = t
        .store()
        .set({ level: 'application', space: t.space, key: 'prompts.append', value: 'x' });
      expect((await rejectionOf(write)).code).toBe('space_unsafe');
      expect(existsSync(t.appFile)).toBe(false);
    });

    it('refuses a settings.json that is a symlink, on read and on write', async () => {
      const t = await makeTempSpace();
      const outside = await outsideFolder(t);
      const before = await readFile(join(outside, 'settings.json'));
      await mkdir(join(t.space, '.repa'));
      await symlink(join(outside, 'settings.json'), t.spaceFile);
      expect((await rejectionOf(t.store().get({ space: t.space }))).code).toBe('space_unsafe');
      expect((await rejectionOf(setAppend(t, 'inside'))).code).toBe('space_unsafe');
      expect(await readFile(join(outside, 'settings.json'))).toEqual(before);
      expect(await readdir(join(t.space, '.repa'))).toEqual(['settings.json']);
    });

    it('refuses a .repa that is a file, leaving it as it was', async () => {
      const t = await makeTempSpace();
      await writeFile(join(t.space, '.repa'), 'not a folder');
      expect((await rejectionOf(setAppend(t, 'inside'))).code).toBe('space_unsafe');
      expect(await readFile(join(t.space, '.repa'), 'utf8')).toBe('not a folder');
    });

    it('still reads and writes through a space root that is itself a symlink', async () => {
      const t = await makeTempSpace();
      const link = join(t.root, 'space-link');
      await symlink(t.space, link);
      await t.store().set({ level: 'space', space: link, key: 'prompts.append', value: 'ok' });
      const run = await t.store().resolveForRun(t.space, 's1');
      expect(run.promptSettings.append).toBe('ok');
    });
  });

  describe('temp files of a killed writer', () => {
    it('removes old temp files of the settings file on the next write, and only those', async () => {
      const t = await makeTempSpace();
      await setAppend(t, 'first');
      const folder = join(t.space, '.repa');
      // write-file-atomic names its temp file `<file>.<number>`; a SIGKILL leaves it behind.
      const hourAgo = new Date(Date.now() - 3_600_000);
      for (const name of [
        'settings.json.1234567',
        'settings.json.99',
        'settings.json.bak',
        'x.8',
      ]) {
        await writeFile(join(folder, name), '{"partial');
        await utimes(join(folder, name), hourAgo, hourAgo);
      }
      await writeFile(join(folder, 'settings.json.42'), '{"fresh'); // a live writer's, maybe
      await setAppend(t, 'second');
      expect(await t.siblings(t.spaceFile)).toEqual([
        '.gitignore',
        'settings.json',
        'settings.json.42',
        'settings.json.bak',
        'x.8',
      ]);
      expect((await t.store().resolveForRun(t.space, 's1')).promptSettings.append).toBe('second');
    });
  });

  describe('a lock lost during a write', () => {
    const update = (path: string, during: () => void) =>
      updateSettingsDocument(
        path,
        'application',
        settingsRegistry,
        async () => {
          await mkdir(join(path, '..'), { recursive: true });
        },
        (document) => {
          during();
          document.write({ level: 'application' }, 'prompts.append', { value: 'late' });
          return { changed: true, result: undefined };
        },
      );

    it('fails with busy and writes nothing when its lock folder vanished mid-write', async () => {
      const t = await makeTempSpace();
      const error = await rejectionOf(
        update(t.appFile, () => rmSync(`${t.appFile}.lock`, { recursive: true })),
      );
      expect(error.code).toBe('busy');
      expect(existsSync(t.appFile)).toBe(false);
    });

    it('fails with busy, writes nothing and keeps the new lock when another process took it over', async () => {
      const t = await makeTempSpace();
      const lockPath = `${t.appFile}.lock`;
      // What proper-lockfile in another process does with a lock it judges stale.
      const takeOver = () => {
        rmSync(lockPath, { recursive: true });
        mkdirSync(lockPath);
      };
      const error = await rejectionOf(update(t.appFile, takeOver));
      expect(error.code).toBe('busy');
      expect(existsSync(t.appFile)).toBe(false);
      expect(existsSync(lockPath)).toBe(true);
    });

    it('fails with busy and writes nothing when its lock went stale during a stall', async () => {
      const t = await makeTempSpace();
      const lockPath = `${t.appFile}.lock`;
      // A stalled event loop stops proper-lockfile's refresh: the lock's mtime ages.
      const age = () => {
        const longAgo = new Date(Date.now() - 60_000);
        utimesSync(lockPath, longAgo, longAgo);
      };
      const error = await rejectionOf(update(t.appFile, age));
      expect(error.code).toBe('busy');
      expect(existsSync(t.appFile)).toBe(false);
      expect(existsSync(lockPath)).toBe(false);
    });
  });
});
