import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage, fauxProvider } from '@earendil-works/pi-ai';
import { RepaError } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { offlineModel } from '../models/choose-model.js';
import { answerEveryRequest, fauxModelChoice } from '../models/faux-model-choice.js';
import { buildLearningContext } from './build-learning-context.js';
import { SOURCE_TEXT_LIMIT } from './learning-context-sources.js';

function space(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'repa-build-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

/** A faux model with a small window that records each request's text and answers `answer`. */
async function smallModel(answer: string) {
  const faux = fauxProvider({ models: [{ id: 'small', contextWindow: 2_000, maxTokens: 500 }] });
  const requests: { system: string; text: string }[] = [];
  answerEveryRequest(faux, (context) => {
    // Pi carries the system prompt as the transcript's system message.
    const textOf = (role: string) =>
      context.messages
        .filter((message) => message.role === role)
        .map((message) => JSON.stringify(message.content))
        .join('\n');
    requests.push({ system: textOf('system'), text: textOf('user') });
    return fauxAssistantMessage(answer);
  });
  const choice = await fauxModelChoice(faux, 'faux/small');
  return { choice, requests };
}

describe('buildLearningContext', () => {
  it('on repa-offline extracts headings and first sentences, labelled, with each source hashed', async () => {
    const root = space({
      'intro.md':
        '# Tides\n\nThe moon pulls the sea. It does so twice a day.\n\n## Springs\nBig tides. Rare.\n',
    });
    const steps: string[] = [];
    const built = await buildLearningContext(root, await offlineModel(), {
      sources: ['intro.md'],
      onProgress: (progress) => steps.push(progress.step),
    });
    expect(built.extractive).toBe(true);
    expect(built.model).toBe('repa-offline');
    expect(built.body).toContain('Extractive context built offline by repa-offline');
    expect(built.body).toContain(
      '## intro.md\n- Tides\n  - The moon pulls the sea.\n- Springs\n  - Big tides.',
    );
    expect(built.body).not.toContain('twice a day');
    expect(built.sourceVersions[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(steps).toEqual(['reading', 'extracting']);
  });

  it('asks a real model once with the documents, cut to its window and says what was cut', async () => {
    const root = space({ 'short.md': 'Short note.', 'long.md': 'x'.repeat(10_000) });
    const { choice, requests } = await smallModel('## Working on\nTides.');
    const built = await buildLearningContext(root, choice, {
      sources: ['short.md', 'long.md'],
      instructions: 'focus on the moon',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.system).toContain('## Key ideas');
    expect(requests[0]?.text).toContain('The learner asks: focus on the moon');
    expect(requests[0]?.text).toContain(
      JSON.stringify('<document path="short.md">\nShort note.\n</document>').slice(1, -1),
    );
    expect(built).toMatchObject({
      body: '## Working on\nTides.\n',
      extractive: false,
      model: 'faux/small',
      cut: [
        {
          path: 'long.md',
          keptChars: 4_000 - 'Short note.'.length,
          totalChars: 10_000,
          reason: 'window',
        },
      ],
    });
    expect(requests[0]?.text).toContain(`(Cut to fit: long.md ${4_000 - 11}/10000 characters.)`);
  });

  it("names a source cut at the read limit as such, not as the model's window being full", async () => {
    const size = SOURCE_TEXT_LIMIT + 10;
    const root = space({ 'huge.md': 'x'.repeat(size) });
    const faux = fauxProvider({ models: [{ id: 'wide', contextWindow: 4_000_000 }] });
    answerEveryRequest(faux, () => fauxAssistantMessage('## Working on\nA huge note.'));
    const built = await buildLearningContext(root, await fauxModelChoice(faux, 'faux/wide'), {
      sources: ['huge.md'],
    });
    expect(built.cut).toEqual([
      { path: 'huge.md', keptChars: SOURCE_TEXT_LIMIT, totalChars: size, reason: 'read-limit' },
    ]);
  });

  it('is cancelled by its signal and refuses missing sources and sources outside the space', async () => {
    const root = space({ 'a.md': 'A.' });
    const { choice, requests } = await smallModel('never');
    const controller = new AbortController();
    const cancelled = await buildLearningContext(root, choice, {
      sources: ['a.md'],
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.step === 'model') controller.abort();
      },
    }).catch((error: unknown) => error);
    expect(RepaError.isInstance(cancelled) && cancelled.code).toBe('cancelled');
    const missing = await buildLearningContext(root, choice, { sources: ['b.md'] }).catch(
      (error: unknown) => error,
    );
    expect(RepaError.isInstance(missing) && missing.code).toBe('not_found');
    const outside = await buildLearningContext(root, choice, { sources: ['../a.md'] }).catch(
      (error: unknown) => error,
    );
    expect(RepaError.isInstance(outside) && outside.code).toBe('path_outside_space');
    expect(requests).toHaveLength(0);
  });
});
