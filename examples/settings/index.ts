import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAppDirectory } from '@repa/protocol/node';
import { SettingsStore } from '@repa/settings';

const base = mkdtempSync(join(tmpdir(), 'repa-settings-example-'));
const space = join(base, 'biology');
mkdirSync(space);

const store = new SettingsStore({
  appDirectory: resolveAppDirectory({ appDirectory: join(base, 'app') }),
});
await store.set({ level: 'space', space, key: 'prompts.fileChanges', value: 'diff' });
const items = await store.get({ space, sessionId: 's1' }); // SettingItemView[]
const fileChanges = items.find((item) => item.key === 'prompts.fileChanges');
console.log(`prompts.fileChanges = ${fileChanges?.value} (from ${fileChanges?.source})`);
const run = await store.resolveForRun(space, 's1'); // what a run is accepted with (spec R20)
console.log(`a run sees fileChanges: ${run.promptSettings.fileChanges}`);
