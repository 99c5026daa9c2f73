import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturePath } from '@repa/fixtures';
import type { WritableSettingsLevel } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { settingsRegistry } from './settings-registry.js';
import { makeTempSpace } from './test/temp-space.js';

const casesRoot = fixturePath('settings');
const cases = readdirSync(casesRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

async function readCase(name: string, file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(casesRoot, name, `${file}.json`), 'utf8'));
}

describe('SettingsStore', () => {
  describe('resolution golden cases (fixtures/settings)', () => {
    it('has cases to run', () => {
      expect(cases.length).toBeGreaterThanOrEqual(4);
    });

    it.each(cases)('%s', async (name) => {
      const defaults = await readCase(name, 'default');
      expect(
        Object.fromEntries(settingsRegistry.items.map((item) => [item.key, item.defaultValue])),
      ).toEqual(defaults);

      const t = await makeTempSpace();
      const store = t.store();
      const sessionId = `golden-${name}`;
      const levels: WritableSettingsLevel[] = ['application', 'space', 'session'];
      for (const level of levels) {
        for (const [key, value] of Object.entries(await readCase(name, level))) {
          await store.set({ level, space: t.space, sessionId, key, value });
        }
      }
      expect(await store.resolveForRun(t.space, sessionId)).toEqual(
        await readCase(name, 'expected'),
      );
    });
  });
});
