// A second process for settings-store-processes.test.ts. It loads the BUILT package (dist/), says
// "ready", waits for "go" on stdin so that all children start together, runs one job and prints
// one JSON line with its outcome. The job comes as JSON in argv[2].
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import {
  createSettingsRegistry,
  defineSettingItem,
  SettingsStore,
  settingsRegistry,
} from '../../dist/index.js';

const job = JSON.parse(process.argv[2]);

// The same registry as numberedRegistry() in test-registry.ts: Repa's items plus test.item0…N-1.
const numbered = Array.from({ length: job.itemCount ?? 0 }, (_, index) =>
  defineSettingItem({
    key: `test.item${index}`,
    description: `Numbered test item ${index}.`,
    schema: z.string(),
    defaultValue: '',
  }),
);
const registry = createSettingsRegistry([...settingsRegistry.items, ...numbered]);
const store = new SettingsStore({
  appDirectory: job.appDirectory,
  registry,
  isTrusted: () => true,
});

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await once(lines, 'line');
lines.close();

const outcomes = [];
for (let index = job.from; index < job.to; index += 1) {
  const input =
    job.kind === 'items'
      ? { level: 'application', key: `test.item${index}`, value: `${job.writer}:${index}` }
      : job.kind === 'sessions'
        ? {
            level: 'session',
            space: job.space,
            sessionId: `session-${index}`,
            key: 'prompts.append',
            value: `${job.writer}:${index}`,
          }
        : { ...job.input };
  try {
    const item = await store.set(input);
    outcomes.push({ ok: true, revisions: item.revisions });
  } catch (error) {
    outcomes.push({ ok: false, code: error.code, details: error.details, message: error.message });
  }
}
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
