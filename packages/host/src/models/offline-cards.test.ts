import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftRequestText, parsePassage } from '@repa/content';
import { makePdf } from '@repa/fixtures';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { PiConversationHost } from '../conversation/pi-conversation-host.js';
import { createFauxHost } from '../testing/index.js';
import { offlineModel } from './choose-model.js';

async function offlineHost() {
  const { space, appDirectory } = await createFauxHost();
  const choice = await offlineModel();
  const host = await PiConversationHost.open({
    space,
    appDirectory,
    agentDir: join(appDirectory, 'agent'),
    modelRuntime: choice.modelRuntime,
    model: choice.model,
  });
  return { host, space };
}

const draft = (passage: string) => draftRequestText({ passage: parsePassage(passage) });

describe('the offline model drafting cards', () => {
  it('reads the passage, then answers with cloze cards citing the lines it read', async () => {
    const { host, space } = await offlineHost();
    writeFileSync(
      join(space, 'cells.md'),
      '# Cells\n\nATP is the energy currency of the cell.\nMitochondria make most of the ATP.\n\nRibosomes build proteins.\n',
    );
    const outcome = await host.send(draft('cells.md:3-6'), { ...DEFAULT_PROMPT_SETTINGS });
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
    const { host, space } = await offlineHost();
    writeFileSync(
      join(space, 'book.pdf'),
      makePdf([
        { lines: ['Week 1', 'Topic 1 of the course.'] },
        { lines: ['Week 2', 'The Krebs cycle releases carbon dioxide.'] },
      ]),
    );
    const outcome = await host.send(draft('book.pdf#p2'), { ...DEFAULT_PROMPT_SETTINGS });
    expect(outcome.output).toContain(
      'Cloze: The Krebs cycle ==releases== carbon dioxide.\nSource: [book.pdf#p2:2 "The Krebs cycle releases carbon dioxide."]',
    );
    expect(outcome.citations?.every((citation) => citation.status === 'verified')).toBe(true);
    host.dispose();
  });
});
