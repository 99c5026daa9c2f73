import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { SettingsRegistry } from '../settings-registry.js';
import { SettingsStore } from '../settings-store.js';

/** A fresh temp folder with an application directory and one space, removed after the test. */
export interface TempSpace {
  /** The temp folder holding everything. */
  readonly root: string;
  /** The application config directory (not created until a write). */
  readonly appDirectory: string;
  /** An existing, empty space folder. */
  readonly space: string;
  /** `<appDirectory>/repa-settings.json`. */
  readonly appFile: string;
  /** `<space>/.repa/settings.json`. */
  readonly spaceFile: string;
  /** A store on this app directory. */
  store(registry?: SettingsRegistry): SettingsStore;
  /** The parsed JSON of a file. */
  readJson(path: string): Promise<unknown>;
  /** Every name in the folder of `path` (to spot leftover temp files and locks). */
  siblings(path: string): Promise<string[]>;
}

const created: string[] = [];

afterEach(async () => {
  for (const root of created.splice(0)) await rm(root, { recursive: true, force: true });
});

/** Makes a {@link TempSpace}; it is deleted after the current test. */
export async function makeTempSpace(): Promise<TempSpace> {
  const root = await mkdtemp(join(tmpdir(), 'repa-settings-'));
  created.push(root);
  const appDirectory = join(root, 'app');
  const space = join(root, 'space');
  await mkdir(space);
  return {
    root,
    appDirectory,
    space,
    appFile: join(appDirectory, 'repa-settings.json'),
    spaceFile: join(space, '.repa', 'settings.json'),
    store: (registry) => new SettingsStore({ appDirectory, registry, isTrusted: () => true }),
    readJson: async (path) => JSON.parse(await readFile(path, 'utf8')),
    siblings: async (path) => (await readdir(join(path, '..'))).sort(),
  };
}
