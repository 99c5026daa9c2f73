// Spec R37: `repa chat` in a real pseudo-terminal (tmux) asks before each save, with its diff.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import { createSandbox, repa, repaJson } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminal, type Terminal } from './terminal-harness.js';

const sandbox = createSandbox();
let model: OpenAiEndpoint;
let terminal: Terminal | undefined;
const write = (path: string, content: string): EndpointReply => ({
  kind: 'tools',
  calls: [{ name: 'write', arguments: { path, content } }],
});

beforeAll(async () => {
  model = await startOpenAiEndpoint([{ kind: 'text', text: 'Done.' }]);
  model.configure(sandbox.agentDir);
  const start = await repaJson(sandbox, ['daemon', 'start', '--model', 'test/plain']);
  expect(start.code, start.stderr).toBe(0);
  const first = await repa(sandbox, ['run', 'Hello.']);
  expect(first.code, first.stderr).toBe(0);
  const set = await repa(sandbox, ['settings', 'set', 'tools.edits', 'ask']);
  expect(set.code, set.stderr).toBe(0);
});

afterAll(async () => {
  terminal?.close();
  await repaJson(sandbox, ['daemon', 'stop']);
  await model.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa chat with tools.edits ask', () => {
  it('shows each save with its diff and asks: y approves one, n with a reason refuses the other', async () => {
    model.replies.splice(
      0,
      model.replies.length,
      write('notes/yes.md', '# Kept\n'),
      write('notes/no.md', '# Dropped\n'),
      { kind: 'text', text: 'Done.' },
    );
    terminal = openTerminal(sandbox, ['chat', '--new'], { columns: 100, rows: 40 });
    await terminal.waitFor(/edits: ask/);
    await terminal.waitFor(/edits ask ·/);
    terminal.keys('Write two notes.', 'Enter');
    await terminal.waitFor(
      /\[approve\] write wants to change notes\/yes\.md[\s\S]*\+# Kept[\s\S]*Apply it\?/,
    );
    expect(existsSync(join(sandbox.space, 'notes/yes.md'))).toBe(false);
    terminal.keys('y', 'Enter');
    await terminal.waitFor(/\[approve\] write wants to change notes\/no\.md/);
    expect(readFileSync(join(sandbox.space, 'notes/yes.md'), 'utf8')).toBe('# Kept\n');
    terminal.keys('n keep one file', 'Enter');
    const done = await terminal.waitFor(
      /\[refused\] write notes\/no\.md: keep one file[\s\S]*Done\./,
    );
    expect(done).toContain('[approved] write notes/yes.md');
    expect(existsSync(join(sandbox.space, 'notes/no.md'))).toBe(false);
    const told = JSON.stringify(model.requests.at(-1)?.messages);
    expect(told).toContain('edit_refused');
    expect(told).toContain('keep one file');
  });
});
