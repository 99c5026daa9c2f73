// `/model` in `repa chat`, and a resumed chat's citation checks, on a real pseudo-terminal (tmux)
// with a real daemon: the offline responder and a model served by the test (slow-model.ts).
import type { SessionInfo } from '@repa/protocol';
import { repa, repaJson, SLOW_MODEL, writeFiles } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSlowDaemon } from './commands-sandbox.js';
import { openTerminal, type Terminal } from './terminal-harness.js';

// The offline responder by default; the test's endpoint in Pi's models.json to switch to.
const { sandbox } = useSlowDaemon({ model: 'repa-offline', holding: false });
let terminal: Terminal | undefined;

beforeAll(async () => {
  writeFiles(sandbox.space, { 'notes/a.md': '# Tides\n\nThe tide turns every six hours.\n' });
  const first = await repa(sandbox, ['run', 'What does notes/a.md say?']);
  expect(first.code, first.stderr).toBe(0);
});

afterAll(() => terminal?.close());

/** The picker's selected line (`→ …`). */
const selected = (screen: string) => /^→ (.*)$/m.exec(screen)?.[1] ?? '';

describe('/model in repa chat', () => {
  it('/model ID switches the session to that model; alone it opens a picker (Enter picks, Esc keeps)', async () => {
    terminal = openTerminal(sandbox, ['chat', '--new'], { columns: 120, rows: 40 });
    await terminal.waitFor(/^repa-offline · thinking/m);
    terminal.keys(`/model ${SLOW_MODEL}`, 'Enter');
    await terminal.waitFor(/model for this session from the next request: test\/slow — /);
    await terminal.waitFor(/^test\/slow · thinking/m); // The status line.
    terminal.keys('Hello there.', 'Enter');
    await terminal.waitFor(/^Hello from the test model\.$/m);

    // Alone: the models with credentials, the current one selected; arrows move, Enter picks.
    terminal.keys('/model', 'Enter');
    let screen = await terminal.waitFor(/^Pick a model: /m);
    expect(selected(screen)).toContain('test/slow');
    expect(screen).toMatch(/^ {2}repa-offline \(local responder/m);
    terminal.keys('Up');
    await terminal.waitFor(/^→ repa-offline/m);
    terminal.keys('Enter');
    await terminal.waitFor(/model for this session from the next request: repa-offline/);
    await terminal.waitFor(/^repa-offline · thinking/m);
    expect(terminal.screen()).not.toMatch(/^Pick a model: /m);

    // Esc keeps the model; the editor has the keys again.
    terminal.keys('/model', 'Enter');
    screen = await terminal.waitFor(/^Pick a model: /m);
    expect(selected(screen)).toContain('repa-offline');
    terminal.keys('Down');
    await terminal.waitFor(/^→ test\/slow/m);
    terminal.keys('Escape');
    await terminal.waitFor(/^\[repa\] model kept: repa-offline/m);
    terminal.keys('What does notes/a.md say?', 'Enter');
    await terminal.waitFor(/^\[repa-offline\] From notes\/a\.md/m);
    terminal.keys('/quit', 'Enter');
    await terminal.waitFor(/\[exit 0\]/);
    terminal.close();
    // The session's setting, as the page's "Keep for this session" writes it.
    const got = await repaJson<{ items: { value: unknown; source: string }[] }>(sandbox, [
      'settings',
      'get',
      'model.id',
    ]);
    expect(got.json.items[0]).toMatchObject({ value: 'repa-offline', source: 'session' });
  });

  it('/model with an id Pi does not know changes nothing and names the closest', async () => {
    terminal = openTerminal(sandbox, ['chat', '--new'], { columns: 120, rows: 40 });
    await terminal.waitFor(/^repa-offline · thinking/m);
    terminal.keys('/model test/slw', 'Enter');
    const screen = await terminal.waitFor(/\(not_found\)/);
    expect(screen.replace(/\s+/g, ' ')).toContain('test/slow');
    terminal.keys('/quit', 'Enter');
    await terminal.waitFor(/\[exit 0\]/);
    terminal.close();
  });
});

describe('a resumed repa chat', () => {
  it('shows the citation checks of the earlier replies it shows', async () => {
    const { json } = await repaJson<{ sessions: SessionInfo[] }>(sandbox, ['sessions', 'list']);
    const cited = json.sessions.at(-1)?.sessionId ?? ''; // The first session: the cited run.
    terminal = openTerminal(sandbox, ['chat', '--session', cited], { columns: 120, rows: 40 });
    const screen = await terminal.waitFor(/^repa-offline · thinking/m);
    expect(screen).toMatch(
      /^\[repa-offline\] From notes\/a\.md: The tide turns every six hours\. .*\n\[1\] notes\/a\.md, line 3 ✓$/m,
    );
    terminal.keys('/quit', 'Enter');
    await terminal.waitFor(/\[exit 0\]/);
    terminal.close();
  });
});
