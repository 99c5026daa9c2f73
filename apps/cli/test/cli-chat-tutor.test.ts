// Spec R108: `/tutor` in `repa chat` on a real pseudo-terminal (tmux), on the offline model.
import type { SettingItemView } from '@repa/protocol';
import { repa, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';
import { openTerminal, type Terminal } from './terminal-harness.js';

const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: (sandbox) =>
    writeFiles(sandbox.space, {
      'notes/moon.md':
        '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n',
    }),
});
let terminal: Terminal | undefined;

beforeAll(async () => {
  // A first run makes the folder a Repa space (chat would ask first).
  const first = await repa(sandbox, ['run', 'Hello.']);
  expect(first.code, first.stderr).toBe(0);
});

afterAll(() => terminal?.close());

const studyMode = async () =>
  (await repaJson<{ items: SettingItemView[] }>(sandbox, ['settings', 'get', 'study.mode'])).json;

describe('/tutor in repa chat', () => {
  it('switches the session to tutor mode and back: a hint and a question, then the answer', async () => {
    terminal = openTerminal(sandbox, ['chat', '--new'], { columns: 120, rows: 40 });
    await terminal.waitFor(/edits auto ·/);
    terminal.keys('/tutor', 'Enter');
    await terminal.waitFor(/tutor mode on for this session/);
    await terminal.waitFor(/edits auto · tutor ·/);
    terminal.keys('What makes the tides? See notes/moon.md', 'Enter');
    // The reply streams: read once it is whole, its wrapped lines joined.
    const tutored = (await terminal.waitFor(/reasoning\s+against\s+it\./)).replace(/\s+/g, ' ');
    expect(tutored).toContain('Before I answer: what do you think, and why?');
    expect(tutored).toContain('[notes/moon.md:3 "The Moon pulls"]');
    // The chat's session's override, as `repa settings get` (the latest session) shows it.
    expect((await studyMode()).items[0]).toMatchObject({ value: 'tutor', source: 'session' });
    terminal.keys('/tutor', 'Enter');
    await terminal.waitFor(/tutor mode off for this session: the agent answers/);
    terminal.keys('What makes the tides? See notes/moon.md', 'Enter');
    await terminal.waitFor(/From notes\/moon\.md: The Moon pulls the oceans toward it/);
    terminal.keys('/quit', 'Enter');
    await terminal.waitFor(/\[exit 0\]/);
    expect((await studyMode()).items[0]).toMatchObject({ value: 'answer', source: 'session' });
  });
});
