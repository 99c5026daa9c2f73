#!/usr/bin/env node
// Generates fixtures/sessions/pi-session-<version>.jsonl (spec R92) with the RELEASED Pi <version>
// SessionManager: a full learning-context snapshot, an exchange, a compaction and an exchange after
// it. Pi is installed into a temp dir (never into the workspace), so the file is exactly what that
// version writes. Run from the repo root after `npm test` has built the packages:
//   node_modules/.bin/node packages/host/scripts/generate-pi-session.mjs 0.87.1 [out.jsonl]
// The Pi probe (scripts/pi-probe.mjs) also uses it to write a session with the probed release.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { appendLearningContextSnapshot } from '@repa/context';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/u.test(version)) {
  throw new Error('usage: generate-pi-session.mjs <pi-version> [out.jsonl]');
}
const target = process.argv[3]
  ? resolve(process.argv[3])
  : fileURLToPath(
      new URL(`../../../fixtures/sessions/pi-session-${version}.jsonl`, import.meta.url),
    );
const temp = mkdtempSync(join(tmpdir(), `repa-pi-${version}-`));
process.on('exit', () => rmSync(temp, { recursive: true, force: true }));
console.log(`installing @earendil-works/pi-coding-agent@${version} into ${temp} …`);
execFileSync(
  'npm',
  [
    'install',
    '--prefix',
    temp,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    `@earendil-works/pi-coding-agent@${version}`,
  ],
  { stdio: 'inherit' },
);
const pi = await import(
  pathToFileURL(join(temp, 'node_modules/@earendil-works/pi-coding-agent/dist/index.js')).href
);
const installed = JSON.parse(
  readFileSync(join(temp, 'node_modules/@earendil-works/pi-coding-agent/package.json'), 'utf8'),
);
if (installed.version !== version) throw new Error(`expected ${version}, got ${installed.version}`);

const cwd = '/spaces/biology';
const manager = pi.SessionManager.create(cwd, join(temp, 'sessions'));
const usage = (input, output) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
let clock = Date.parse('2026-11-20T09:00:00.000Z');
const tick = () => {
  clock += 1000;
  return clock;
};
const user = (text) => ({
  role: 'user',
  content: [{ type: 'text', text }],
  timestamp: tick(),
});
const assistant = (text, input) => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'faux',
  provider: 'faux',
  model: 'faux-1',
  usage: usage(input, Math.ceil(text.length / 4)),
  stopReason: 'stop',
  timestamp: tick(),
});

const view = {
  revision: '3',
  body: 'Photosynthesis turns light, water and carbon dioxide into glucose and oxygen.\nThe light reactions happen in the thylakoids; the Calvin cycle in the stroma.',
  sources: ['notes/photosynthesis.md', 'materials/chapter-8.pdf'],
};
manager.appendModelChange('faux', 'faux-1');
manager.appendThinkingLevelChange('off');
appendLearningContextSnapshot(manager, view);
manager.appendMessage(user('Where do the light reactions happen?'));
manager.appendMessage(assistant('In the thylakoid membranes of the chloroplast.', 180));
const keptUser = manager.appendMessage(user('And the Calvin cycle?'));
manager.appendMessage(assistant('In the stroma, the fluid around the thylakoids.', 220));
manager.appendCompaction(
  'The user is studying photosynthesis: light reactions (thylakoids) and the Calvin cycle (stroma).',
  keptUser,
  260,
);
manager.appendMessage(user('Summarise the inputs and outputs.'));
manager.appendMessage(assistant('Inputs: light, water, CO2. Outputs: glucose and oxygen.', 140));

copyFileSync(manager.getSessionFile(), target);
const types = readFileSync(target, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line))
  .map((entry) => entry.type + (entry.type === 'message' ? `:${entry.message.role}` : ''));
console.log(`wrote ${target}\n  ${types.join(', ')}`);
