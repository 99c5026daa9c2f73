// Spec R54, R74: ls / find / grep and the skill catalog through Pi's real agent loop (faux provider).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { reply, toolCall } from './faux-replies.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };
const toolEnds = (events: RunEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-end' ? [event] : []));

describe('finding things in a space through the agent loop', () => {
  it('grep, then read on the hit, then edit succeeds end to end', async () => {
    const { host, faux, space, requests } = await createFauxHost();
    mkdirSync(join(space, 'notes'));
    writeFileSync(join(space, 'notes/tides.md'), '# Tides\nTides follow the moon.\n');
    writeFileSync(join(space, 'notes/birds.md'), '# Birds\nGulls.\n');
    faux.setResponses([
      toolCall('grep', { pattern: 'moon' }),
      toolCall('read', { path: 'notes/tides.md' }),
      toolCall('edit', {
        path: 'notes/tides.md',
        edits: [{ oldText: 'the moon', newText: 'the moon and the sun' }],
      }),
      reply('done'),
    ]);
    const events: RunEvent[] = [];
    const outcome = await host.send('fix the tides note', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(outcome.status).toBe('succeeded');
    expect(toolEnds(events).map((end) => [end.toolName, end.isError])).toEqual([
      ['grep', false],
      ['read', false],
      ['edit', false],
    ]);
    const grepResult = requests[1]?.messages.find((message) => message.role === 'toolResult');
    expect(JSON.stringify(grepResult)).toContain('notes/tides.md:2: Tides follow the moon.');
    expect(readFileSync(join(space, 'notes/tides.md'), 'utf8')).toBe(
      '# Tides\nTides follow the moon and the sun.\n',
    );
    host.dispose();
  });

  it('edit after grep without read still gets read_required, and nothing changes', async () => {
    const { host, faux, space } = await createFauxHost();
    writeFileSync(join(space, 'tides.md'), 'Tides follow the moon.\n');
    faux.setResponses([
      toolCall('grep', { pattern: 'moon' }),
      toolCall('edit', { path: 'tides.md', edits: [{ oldText: 'moon', newText: 'sun' }] }),
      reply('gave up'),
    ]);
    const events: RunEvent[] = [];
    await host.send('change it', defaults, { onEvent: (event) => events.push(event) });
    const [grep, edit] = toolEnds(events);
    expect(grep).toMatchObject({ toolName: 'grep', isError: false });
    expect(edit).toMatchObject({
      toolName: 'edit',
      isError: true,
      error: { code: 'read_required' },
    });
    expect(readFileSync(join(space, 'tides.md'), 'utf8')).toBe('Tides follow the moon.\n');
    host.dispose();
  });

  it('a grep produces no file-change notice when the file changes later', async () => {
    const { host, faux, space, requests } = await createFauxHost();
    writeFileSync(join(space, 'tides.md'), 'Tides follow the moon.\n');
    faux.setResponses([toolCall('grep', { pattern: 'moon' }), reply('found it')]);
    await host.send('where is the moon?', defaults);
    writeFileSync(join(space, 'tides.md'), 'Tides follow the sun.\n');
    faux.setResponses([reply('ok')]);
    const events: RunEvent[] = [];
    await host.send('anything new?', defaults, { onEvent: (event) => events.push(event) });
    expect(events.some((event) => event.type === 'file-change-notice')).toBe(false);
    expect(JSON.stringify(requests.at(-1)?.messages)).not.toContain('Files you read');
    host.dispose();
  });

  it('the environment names the finding tools and lists no file of the space', async () => {
    const { host, faux, space } = await createFauxHost();
    writeFileSync(join(space, 'secret-name-of-a-note.md'), 'x');
    faux.setResponses([reply('hi')]);
    const outcome = await host.send('hi', defaults);
    expect(outcome.prompt?.sections.environment).toContain(
      'use ls, find and grep to find what the space holds',
    );
    expect(outcome.prompt?.text).not.toContain('secret-name-of-a-note');
    host.dispose();
  });
});

describe('skills offered in the catalog', () => {
  const withSkill = async () => {
    const agentDir = mkdtempSync(join(tmpdir(), 'repa-agent-'));
    const skillFile = join(agentDir, 'skills', 'tides', 'SKILL.md');
    mkdirSync(join(agentDir, 'skills', 'tides'), { recursive: true });
    writeFileSync(
      skillFile,
      '---\nname: tides\ndescription: Reading tide tables.\n---\nLook for high water first.\n',
    );
    const outsideFile = join(agentDir, 'private.md');
    writeFileSync(outsideFile, 'not a skill');
    return { ...(await createFauxHost({ agentDir })), skillFile, outsideFile };
  };

  it('reads a skill at the location the catalog shows; write refuses it; nothing else opens', async () => {
    const { host, faux, skillFile, outsideFile } = await withSkill();
    faux.setResponses([
      toolCall('read', { path: skillFile }),
      toolCall('write', { path: skillFile, content: 'overwritten' }),
      toolCall('read', { path: outsideFile }),
      reply('done'),
    ]);
    const events: RunEvent[] = [];
    const outcome = await host.send('check the tides', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(outcome.prompt?.sections.skillCatalog).toContain(`<location>${skillFile}</location>`);
    const [read, write, other] = toolEnds(events);
    expect(read).toMatchObject({ toolName: 'read', isError: false });
    expect(write).toMatchObject({ isError: true, error: { code: 'protected_path' } });
    expect(other).toMatchObject({ isError: true, error: { code: 'path_outside_space' } });
    expect(readFileSync(skillFile, 'utf8')).toContain('Look for high water first.');
    host.dispose();
  });

  it('a skill is not readable when the catalog is off', async () => {
    const { host, faux, skillFile } = await withSkill();
    faux.setResponses([toolCall('read', { path: skillFile }), reply('done')]);
    const events: RunEvent[] = [];
    await host.send(
      'check',
      { ...defaults, skillCatalog: false },
      {
        onEvent: (event) => events.push(event),
      },
    );
    expect(toolEnds(events)[0]).toMatchObject({
      isError: true,
      error: { code: 'path_outside_space' },
    });
    host.dispose();
  });
});
