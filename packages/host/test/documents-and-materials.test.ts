import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { truncateHead } from '@earendil-works/pi-coding-agent';
import { addMaterial, ContentObserver, ContentStore } from '@repa/content';
import { makePdf } from '@repa/fixtures';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { RepaError } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { buildLearningContext } from '../src/learning-context/build-learning-context.js';
import { offlineModel } from '../src/models/choose-model.js';
import { checkRunInput, readAttachments } from '../src/run-inputs.js';
import { openOfflineHost } from '../src/test/offline-host.js';
import { createFauxHost } from '../src/testing/index.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS, learningContext: false };

/** A lecture PDF: enzymes on page 2, compressed content streams. */
const lecture = makePdf([
  { lines: ['Lab 5: Catalysis', 'Safety goggles are required.'] },
  { lines: ['Results', 'Enzymes lower the activation energy of a reaction.'] },
  { image: true },
]);

async function offlineHost() {
  const opened = await openOfflineHost();
  return { ...opened, space: realpathSync(opened.space) };
}

const books = () => {
  const folder = mkdtempSync(join(tmpdir(), 'repa-books-'));
  writeFileSync(join(folder, 'ch3.pdf'), lecture);
  return join(folder, 'ch3.pdf');
};

describe('documents and materials in a run', () => {
  it('repa-offline answers from a PDF the request names, with a verified citation of its page', async () => {
    const { host, space } = await offlineHost();
    writeFileSync(join(space, 'lab5.pdf'), lecture);
    writeFileSync(join(space, 'unrelated.md'), 'Enzymes are discussed elsewhere.\n');
    const outcome = await host.send('What does lab5.pdf say about enzymes?', defaults);
    expect(outcome.output).toBe(
      '[repa-offline] From lab5.pdf (page 2): Enzymes lower the activation energy of a reaction. [lab5.pdf#p2:2 "Enzymes lower the activation energy of a reaction."]',
    );
    // Line 2 of page 2 (after its `[Page 2 of 3]` line) is checked against what the read showed.
    expect(outcome.citations).toMatchObject([
      { page: 2, startLine: 2, target: 'lab5.pdf', status: 'verified' },
    ]);
    host.dispose();
  });

  it('tells the model the granted materials, and repa-offline reads one by identity or title', async () => {
    const { host, space, appDirectory } = await offlineHost();
    await addMaterial(appDirectory, {
      path: books(),
      id: 'ch3',
      title: 'Catalysis lab',
      spaces: [realpathSync(space)],
    });
    const events: RunEvent[] = [];
    const byId = await host.send('What does repa:material/ch3 say about enzymes?', defaults, {
      onEvent: (event) => events.push(event),
    });
    expect(byId.output).toBe(
      '[repa-offline] From repa:material/ch3 (page 2): Enzymes lower the activation energy of a reaction. [repa:material/ch3#p2:2 "Enzymes lower the activation energy of a reaction."]',
    );
    expect(byId.citations).toMatchObject([{ page: 2, status: 'verified' }]);
    const sections = events.find((event) => event.type === 'prompt-sections');
    const materials =
      sections?.type === 'prompt-sections'
        ? sections.sections.find((section) => section.name === 'materials')
        : undefined;
    expect(materials).toMatchObject({
      included: true,
      reason: '1 material granted to this space',
      text: expect.stringContaining('- repa:material/ch3 "Catalysis lab" (PDF, 2 KB)'),
    });
    const byTitle = await host.send(
      'What does the catalysis lab say about activation energy?',
      defaults,
    );
    expect(byTitle.output).toContain('From repa:material/ch3 (page 2)');
    host.dispose();
  });

  it('attaches a PDF and a material as their text; the material is not tracked', async () => {
    const { space, appDirectory } = await createFauxHost();
    writeFileSync(join(space, 'lab5.pdf'), lecture);
    await addMaterial(appDirectory, { path: books(), id: 'ch3', spaces: [realpathSync(space)] });
    const input = {
      type: 'text' as const,
      text: 'Compare these',
      attachments: [{ path: 'lab5.pdf' }, { path: 'repa:material/ch3' }],
    };
    await checkRunInput(space, appDirectory, input);
    const store = await ContentStore.open({ root: space, appDirectory });
    const observer = new ContentObserver(store);
    const { text, sources } = await readAttachments(store, observer, input.attachments);
    expect(text).toContain('<attached-document path="lab5.pdf"');
    expect(text).toContain('[Page 2 of 3]\nResults\nEnzymes lower the activation energy');
    expect(text).toContain('<attached-document path="repa:material/ch3"');
    expect(text).not.toContain('%PDF');
    expect(sources.map((source) => source.path)).toEqual(['lab5.pdf', 'repa:material/ch3']);
    expect(observer.list().map((seen) => seen.target)).toEqual(['lab5.pdf']);
  });

  it('attaches a long note cut as Pi cuts it, its note counting the lines of the whole file', async () => {
    const { space, appDirectory } = await createFauxHost();
    const whole = `${Array.from({ length: 400_000 }, (_, index) => `line ${index + 1}`).join('\n')}\n`;
    writeFileSync(join(space, 'long.md'), whole);
    const store = await ContentStore.open({ root: space, appDirectory });
    const { text } = await readAttachments(store, new ContentObserver(store), [
      { path: 'long.md' },
    ]);
    const cut = truncateHead(whole);
    expect(cut.totalLines).toBe(400_000);
    expect(text).toContain(
      `">\n${cut.content}\n[Truncated: ${cut.outputLines} of 400000 lines shown. Use read for the rest.]\n</attached-document>`,
    );
  });

  it('refuses to attach a material granted to another space, or a file no layer reads', async () => {
    const { space, appDirectory } = await createFauxHost();
    const other = mkdtempSync(join(tmpdir(), 'repa-other-'));
    await addMaterial(appDirectory, { path: books(), id: 'ch3', spaces: [realpathSync(other)] });
    writeFileSync(join(space, 'clip.mp4'), Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0', 'latin1'));
    const codeOf = (path: string) =>
      checkRunInput(space, appDirectory, { type: 'text', text: 'x', attachments: [{ path }] }).then(
        () => 'accepted',
        (error: unknown) => (RepaError.isInstance(error) ? error.code : String(error)),
      );
    expect(await codeOf('repa:material/ch3')).toBe('material_not_granted');
    expect(await codeOf('clip.mp4')).toBe('unsupported_content');
  });

  it('builds a learning context from notes and a PDF with its text, not its syntax', async () => {
    const { space } = await createFauxHost();
    writeFileSync(join(space, 'notes.md'), '# Catalysis\n\nCatalysts speed reactions up.\n');
    writeFileSync(join(space, 'lab5.pdf'), lecture);
    const built = await buildLearningContext(space, await offlineModel(), {
      sources: ['notes.md', 'lab5.pdf'],
    });
    expect(built.body).toContain('## lab5.pdf');
    expect(built.body).toContain('Enzymes lower the activation energy of a reaction.');
    expect(built.body).not.toMatch(/%PDF|endobj|\uFFFD|\[Page/u);
    expect(built.sourceVersions.map((version) => version.path)).toEqual(['notes.md', 'lab5.pdf']);
  });
});
