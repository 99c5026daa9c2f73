import { lstat, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, type FsLayer, ignoreFolderContents } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import type { SettingsDocument } from './settings-document.js';
import { readSettingsDocument, settingsIoError } from './settings-file.js';
import type { SettingsRegistry } from './settings-registry.js';

/** The space and session settings file inside a space (spec R16). */
export const SPACE_FILE = join('.repa', 'settings.json');

/**
 * Refuses with `space_unsafe` unless `<space>/.repa` (when present) is a real folder and its
 * settings file (when present) a real file: a symlink at either level would put the space's
 * settings somewhere else (spec R16). The space root itself may be reached through a symlink.
 */
export async function checkRepaFolder(space: string): Promise<void> {
  const folder = join(space, '.repa');
  const file = join(space, SPACE_FILE);
  // Both looked at once (every run's submit reads the settings), judged in this order.
  const [folderStats, fileStats] = await Promise.allSettled([lstat(folder), lstat(file)]);
  for (const [path, wanted, result] of [
    [folder, 'folder', folderStats],
    [file, 'file', fileStats],
  ] as const) {
    if (result.status === 'rejected') {
      if (errnoCode(result.reason) === 'ENOENT') return;
      throw settingsIoError(result.reason, file, 'Inspecting the folder of');
    }
    const stats = result.value;
    const plain = wanted === 'folder' ? stats.isDirectory() : stats.isFile();
    if (!plain) {
      const found = stats.isSymbolicLink() ? 'a symlink' : `not a ${wanted}`;
      throw new RepaError('space_unsafe', `${path} is ${found}; space settings stay untouched.`, {
        details: { space, path },
      });
    }
  }
}

/** Reads `<space>/.repa/settings.json`, checked by {@link checkRepaFolder} before and after. */
export async function readSpaceDocument(
  space: string,
  registry: SettingsRegistry,
  fs: FsLayer,
): Promise<SettingsDocument> {
  await checkRepaFolder(space);
  const document = await readSettingsDocument(join(space, SPACE_FILE), 'space', registry, fs);
  await checkRepaFolder(space); // swapped for a symlink while it was read
  return document;
}

/** Creates `<space>/.repa` as a real folder, refusing to create the space folder itself. */
export async function prepareSpace(space: string): Promise<void> {
  const path = join(space, SPACE_FILE);
  let isDirectory = false;
  try {
    isDirectory = (await stat(space)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) {
    throw new RepaError('not_found', `The space folder ${space} does not exist.`, {
      details: { space },
    });
  }
  await checkRepaFolder(space);
  try {
    await mkdir(join(space, '.repa'));
    // A space's own `.repa/` is never committed or shared by accident.
    await ignoreFolderContents(join(space, '.repa'));
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') {
      throw settingsIoError(error, path, 'Creating the folder of');
    }
  }
  // Created meanwhile by someone else: it must be a real folder too.
  await checkRepaFolder(space);
}
