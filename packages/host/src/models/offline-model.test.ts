import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateTokens, SettingsManager } from '@earendil-works/pi-coding-agent';
import { draftRequestText, parsePassage } from '@repa/content';
import { makePdf } from '@repa/fixtures';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import type { PiConversationHost } from '../conversation/pi-conversation-host.js';
import { openOfflineHost } from '../test/offline-host.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };
const toolNames = (events: RunEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-start' ? [event.toolName] : []));

describe('the offline model', () => {
  it('answers a question from the file it names, through the read tool', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(
      join(space, 'cells.md'),
      '# Cells\nMitochondria make ATP for the cell.\nRibosomes make proteins.\n',
    );
    const events: RunEvent[] = [];
    const outcome = await host.send('What do mitochondria make? See cells.md', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(outcome.output).toBe(
      '[repa-offline] From cells.md: Mitochondria make ATP for the cell. [cells.md:2 "Mitochondria make ATP for the cell."]',
    );
    expect(
      events
        .filter((event) => event.type === 'tool-start')
        .map((event) => event.type === 'tool-start' && event.toolName),
    ).toEqual(['read']);
    // The local responder is no provider: no usage is claimed, no connection named.
    expect(outcome.model).toBe('repa-offline');
    expect(outcome.usage).toBeUndefined();
    expect(outcome.connection).toBeUndefined();
    host.dispose();
  });

  it('answers with prose, not with the Markdown heading', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(join(space, 'tides.md'), '# Tides\nTides are caused by the moon.\n');
    const outcome = await host.send('What does tides.md say about tides?', defaults);
    expect(outcome.output).toBe(
      '[repa-offline] From tides.md: Tides are caused by the moon. [tides.md:2 "Tides are caused by the moon."]',
    );
    expect(outcome.citations?.map((citation) => citation.status)).toEqual(['verified']);
    host.dispose();
  });

  it('performs a requested edit through read and edit, with a receipt', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(join(space, 'todo.md'), 'Study mitosis\r\nStudy meiosis\r\n');
    const events: RunEvent[] = [];
    const outcome = await host.send(
      'Please replace "mitosis" with "the cell cycle" in todo.md',
      defaults,
      {
        onEvent: (event) => events.push(event),
      },
    );
    expect(outcome.output).toBe(
      '[repa-offline] Saved todo.md: replaced "mitosis" with "the cell cycle".',
    );
    expect(readFileSync(join(space, 'todo.md'), 'utf8')).toBe(
      'Study the cell cycle\r\nStudy meiosis\r\n',
    );
    const end = events.find((event) => event.type === 'tool-end' && event.toolName === 'edit');
    expect(end).toMatchObject({ isError: false, receipts: [{ target: 'todo.md' }] });
    host.dispose();
  });

  it('applies a patch in the request after reading each file it updates, with receipts', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(join(space, 'a.md'), 'alpha\n');
    writeFileSync(join(space, 'b.md'), 'beta\n');
    const events: RunEvent[] = [];
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.md',
      '@@',
      '-alpha',
      '+ALPHA',
      '*** Update File: b.md',
      '*** Move to: moved/b.md',
      '@@',
      '-beta',
      '+BETA',
      '*** Add File: c.md',
      '+gamma',
      '*** End Patch',
    ].join('\n');
    const outcome = await host.send(`Apply this patch:\n${patch}`, defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(toolNames(events)).toEqual(['read', 'read', 'apply_patch']);
    expect(outcome.output).toContain('M moved/b.md (moved from b.md)');
    expect(readFileSync(join(space, 'moved/b.md'), 'utf8')).toBe('BETA\n');
    expect(readFileSync(join(space, 'c.md'), 'utf8')).toBe('gamma\n');
    host.dispose();
  });

  it('searches when the request names no file, reads the best hit and names it', async () => {
    const { host, space } = await openOfflineHost();
    mkdirSync(join(space, 'notes'));
    writeFileSync(join(space, 'notes/tides.md'), '# Tides\nTides are caused by the moon.\n');
    writeFileSync(join(space, 'notes/birds.md'), '# Birds\nGulls nest on cliffs.\n');
    writeFileSync(join(space, 'README.md'), 'My notes about the sea.\n');
    const events: RunEvent[] = [];
    const outcome = await host.send('what do my notes say about tides?', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(outcome.output).toBe(
      '[repa-offline] From notes/tides.md: Tides are caused by the moon. [notes/tides.md:2 "Tides are caused by the moon."] (I searched the space and used notes/tides.md.)',
    );
    expect(toolNames(events)).toEqual(['grep', 'read']);
    host.dispose();
  });

  it('falls back to find by name when no line matches', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(join(space, 'tide-tables.md'), 'High water at 06:12.\n');
    const events: RunEvent[] = [];
    const outcome = await host.send('anything on tides?', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(outcome.output).toBe(
      '[repa-offline] From tide-tables.md: High water at 06:12. [tide-tables.md:1 "High water at 06:12."] (I searched the space and used tide-tables.md.)',
    );
    expect(toolNames(events)).toEqual(['grep', 'find', 'read']);
    host.dispose();
  });

  it('says what it is when the request names no file', async () => {
    const { host } = await openOfflineHost();
    const outcome = await host.send('hello', defaults);
    expect(outcome.output).toMatch(
      /^\[repa-offline\] I am a local responder, not a language model\./,
    );
    host.dispose();
  });
});

/** An offline host that keeps as little as Pi allows when compacting, with a note to read. */
async function compactingHost() {
  const { host, space } = await openOfflineHost(
    SettingsManager.inMemory({
      compaction: { enabled: false, keepRecentTokens: 1 },
      retry: { enabled: false },
    }),
  );
  writeFileSync(join(space, 'cells.md'), '# Cells\nMitochondria make ATP for the cell.\n');
  return host;
}

/** Pi's chars/4 estimate of what the session's model is sent now. */
const projected = (host: PiConversationHost) =>
  host.session.sessionManager
    .buildSessionProjection()
    .messages.reduce((sum, message) => sum + estimateTokens(message), 0);

describe('compacting on request', () => {
  it('summarises on the offline responder, with the instructions, figures on one basis', async () => {
    const host = await compactingHost();
    await host.send('What do mitochondria make? See cells.md', defaults);
    await host.send('And what does cells.md say about cells?', defaults);
    const before = projected(host);
    const outcome = await host.compact('keep the open questions', defaults);
    expect(outcome.summary).toContain(
      '[repa-offline] The conversation so far, summarised without a language model',
    );
    expect(outcome.summary).toContain('## Focus asked for\nkeep the open questions');
    expect(outcome.summary).toContain('## Requests\n- What do mitochondria make? See cells.md');
    expect(outcome.instructionsApplied).toBe(true);
    expect(outcome.tokensBefore).toBe(before);
    expect(outcome.tokensAfter).toBe(projected(host));
    host.dispose();
  });

  it('says the instructions were not applied when Pi summarised only the start of a turn', async () => {
    const host = await compactingHost();
    // One turn with a tool call: the kept part cuts it, and nothing came before it.
    await host.send('What do mitochondria make? See cells.md', defaults);
    const outcome = await host.compact('keep the open questions', defaults);
    expect(outcome.summary).toContain('[repa-offline] The start of the current turn');
    expect(outcome.summary).not.toContain('keep the open questions');
    expect(outcome.instructionsApplied).toBe(false);
    host.dispose();
  });
});

const draft = (passage: string) => draftRequestText({ passage: parsePassage(passage) });

describe('the offline model drafting cards', () => {
  it('reads the passage, then answers with cloze cards citing the lines it read', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(
      join(space, 'cells.md'),
      '# Cells\n\nATP is the energy currency of the cell.\nMitochondria make most of the ATP.\n\nRibosomes build proteins.\n',
    );
    const outcome = await host.send(draft('cells.md:3-6'), defaults);
    expect(outcome.output).toBe(
      [
        '[repa-offline] Cards from cells.md:3-6:',
        '',
        'Cloze: ATP is the energy ==currency== of the cell.',
        'Source: [cells.md:3 "ATP is the energy currency of the cell."]',
        '',
        'Cloze: ==Mitochondria== make most of the ATP.',
        'Source: [cells.md:4 "Mitochondria make most of the ATP."]',
        '',
        'Cloze: ==Ribosomes== build proteins.',
        'Source: [cells.md:6 "Ribosomes build proteins."]',
      ].join('\n'),
    );
    expect(outcome.citations?.map((citation) => citation.status)).toEqual([
      'verified',
      'verified',
      'verified',
    ]);
    host.dispose();
  });

  it('drafts from one page of a PDF, citing lines on that page', async () => {
    const { host, space } = await openOfflineHost();
    writeFileSync(
      join(space, 'book.pdf'),
      makePdf([
        { lines: ['Week 1', 'Topic 1 of the course.'] },
        { lines: ['Week 2', 'The Krebs cycle releases carbon dioxide.'] },
      ]),
    );
    const outcome = await host.send(draft('book.pdf#p2'), defaults);
    expect(outcome.output).toContain(
      'Cloze: The Krebs cycle ==releases== carbon dioxide.\nSource: [book.pdf#p2:2 "The Krebs cycle releases carbon dioxide."]',
    );
    expect(outcome.citations?.every((citation) => citation.status === 'verified')).toBe(true);
    host.dispose();
  });
});
