/// <reference lib="dom" />
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePdf } from '@repa/fixtures';
import { type CliSandbox, repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// The learner's documents in the page, end to end: the tree and the reader through a real daemon,
// a citation of an answer opened at its line, and a picked document attached to a request. The
// steps build on each other in order, on one daemon and one browser.

const web = useWebRig({ prepare });
const { sandbox } = web;
/** Where the 1280 px picture goes. */
const SHOTS = web.shots;

/** The space's notes and readings, a PDF among them, and a link out of it to a private folder. */
function prepare(sandbox: CliSandbox): void {
  writeFiles(sandbox.space, {
    'notes/week-2/moon.md': '# The Moon\n\nIt pulls the sea.\n',
    'reading/glossary.md': [
      '# Glossary\n',
      '- Neap tide: the weakest tide, at [half moon](../notes/week-2/moon.md).',
      '- Spring tide: see [notes/a.md:3](https://example.org/tides), [`notes/a.md`](https://example.org/a).\n',
    ].join('\n'),
  });
  writeFileSync(
    join(sandbox.space, 'reading', 'moon.pdf'),
    makePdf([{ lines: ['The Moon'] }, { lines: ['Spring tides', 'Neap tides'] }]),
  );
  mkdirSync(join(sandbox.root, 'private'));
  writeFileSync(join(sandbox.root, 'private', 'diary.md'), 'Not in the space.\n');
  symlinkSync(join(sandbox.root, 'private'), join(sandbox.space, 'private-link'));
}

/** The names the tree shows now, folders with their `/`. */
const treeNames = () =>
  web.page.$$eval('.document-tree .tree-toggle, .document-tree .tree-file .file-link', (nodes) =>
    nodes.map((node) => node.textContent?.replace(/^[▸▾]\s*/u, '').trim()),
  );

/** Waits until the reader shows `path` with a marked line, and gives the marked text. */
async function markedText(path: string): Promise<string> {
  await web.page.waitForFunction(
    (wanted) =>
      document.querySelector('#reader-heading')?.textContent === wanted &&
      document.querySelector('.reader-body .reader-mark') !== null,
    { timeout: STEP_MS },
    path,
  );
  return web.page.$$eval('.reader-body .reader-mark .line-text', (nodes) =>
    nodes.map((node) => node.textContent).join('\n'),
  );
}

describe('the documents panel', () => {
  it('shows the space as a tree (folders first; no .repa, no link out), opens a note rendered (and the note it links to) and a PDF as its pages, then as its text at a page', async () => {
    await web.page.waitForSelector('.document-tree .tree-toggle', { timeout: STEP_MS });
    expect(await treeNames()).toEqual(['notes/', 'reading/']);
    await web.page.click('.document-tree .tree-toggle[aria-expanded="false"]');
    await web.page.waitForFunction(
      () => document.querySelectorAll('.document-tree .tree-file').length >= 2,
      { timeout: STEP_MS },
    );
    expect(await treeNames()).toEqual(['notes/', 'week-2/', 'a.md', 'plan.md', 'reading/']);
    // A file's box sits on its name's line, not above it.
    const [box, name] = await web.page.$eval('.document-tree .tree-file', (row) =>
      ['.pick', '.file-link'].map((part) => {
        const rect = (row.querySelector(part) as Element).getBoundingClientRect();
        return rect.top + rect.height / 2;
      }),
    );
    expect(Math.abs((box ?? 0) - (name ?? 0))).toBeLessThan(8);
    // Every box has its label (a picker says which file it picks).
    expect(
      await web.page.$$eval('.documents input, .documents select', (controls) =>
        controls.filter((control) => (control as HTMLInputElement).labels?.length !== 1),
      ),
    ).toEqual([]);
    expect(await web.page.$eval('.document-tree', (node) => node.textContent)).toContain(
      '1 link to outside the space not shown',
    );
    // A note: its Markdown rendered.
    await web.page.click('.document-tree a.file-link[data-reader-path="notes/plan.md"]');
    await web.page.waitForSelector('.reader-body .reader-block h1', { timeout: STEP_MS });
    expect(await web.page.$eval('.reader-body h1', (node) => node.textContent)).toBe('Plan');
    // A PDF: its pages drawn, then its text with page markers, opened at a chosen page.
    await web.page.click('.tree-folder[data-path="reading"] > .tree-toggle');
    await web.page.waitForSelector('a.file-link[data-reader-path="reading/moon.pdf"]', {
      timeout: STEP_MS,
    });
    await web.page.click('a.file-link[data-reader-path="reading/moon.pdf"]');
    // It opens as its pages; its text is a click away.
    await web.page.waitForSelector('.pdf-page[data-page="1"][data-rendered]', { timeout: STEP_MS });
    await web.page.click('.reader-tools button.link');
    await web.page.waitForSelector('#reader-part', { timeout: STEP_MS });
    await web.page.select('#reader-part', '2');
    expect(await markedText('reading/moon.pdf')).toBe('[Page 2 of 2]');
    expect(
      await web.page.$$eval('.reader-lines .page-marker .line-text', (nodes) =>
        nodes.map((node) => node.textContent),
      ),
    ).toEqual(['[Page 1 of 2]', '[Page 2 of 2]']);
    // A note's link to another note opens that note in the reader.
    await web.page.click('a.file-link[data-reader-path="reading/glossary.md"]');
    await web.page.waitForSelector('.reader-body a[href="../notes/week-2/moon.md"]', {
      timeout: STEP_MS,
    });
    // A link whose text is written like a citation or names a file stays that link (no reader
    // link inside it).
    expect(
      await web.page.$$eval('.reader-body a[href^="https://example.org/"]', (links) =>
        links.map((link) => [link.getAttribute('href'), link.innerHTML]),
      ),
    ).toEqual([
      ['https://example.org/tides', 'notes/a.md:3'],
      ['https://example.org/a', '<code>notes/a.md</code>'],
    ]);
    await web.page.click('.reader-body a[href="../notes/week-2/moon.md"]');
    await web.page.waitForFunction(
      () =>
        document.querySelector('#reader-heading')?.textContent === 'notes/week-2/moon.md' &&
        document.querySelector('.reader-body h1')?.textContent === 'The Moon',
      { timeout: STEP_MS },
    );
  });

  it("asks for the materials and the next run's model once when the page opens, shared by the documents tree, the materials and the learning-context panels", async () => {
    const tab = await web.rig.browser.newPage();
    try {
      await tab.setViewport({ width: 1280, height: 900 });
      const cdp = await tab.createCDPSession();
      await cdp.send('Network.enable');
      const methods: string[] = [];
      cdp.on('Network.webSocketFrameSent', ({ response }) => {
        const method = /"method":"([^"]+)"/u.exec(response.payloadData)?.[1];
        if (method) methods.push(method);
      });
      await tab.goto(web.page.url());
      // The tree, the materials panel's list and the context panel's model line have all shown.
      await tab.waitForFunction(
        () =>
          document.querySelector('.document-tree .tree-toggle') !== null &&
          document.querySelector(
            '.materials, [aria-labelledby="materials-heading"] p.meta + p.meta',
          ) !== null &&
          [...document.querySelectorAll('p.meta')].some((node) =>
            node.textContent?.startsWith("Builds with the space's model"),
          ),
        { timeout: STEP_MS },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const count = (method: string) => methods.filter((sent) => sent === method).length;
      expect({ materials: count('materials.list'), next: count('models.next') }).toEqual({
        materials: 1,
        next: 1,
      });
    } finally {
      await tab.close();
      await web.page.bringToFront();
    }
  });

  it('opens the reader at the line an answer cites, and from the file its tool line names', async () => {
    await sendMessage(web.page, 'What does notes/a.md say about the tide?');
    await lastTurnReaches(web.page, 'succeeded');
    // The file the answer names and its citation are links to the reader.
    expect(
      await web.page.$$eval('.live .turn:last-child .markdown a.file-link', (nodes) =>
        nodes.map((node) => [node.textContent, node.getAttribute('data-reader-line')]),
      ),
    ).toEqual([
      ['notes/a.md', null],
      ['[notes/a.md:3 "The tide turns every six hours."]', '3'],
    ]);
    const citation = '.live .turn:last-child .markdown a.file-link[data-reader-line]';
    await web.page.click(citation);
    expect(await markedText('notes/a.md')).toBe('The tide turns every six hours.');
    expect(
      await web.page.$eval('.reader-body .reader-mark', (node) => node.getAttribute('data-line')),
    ).toBe('3');
    // The link's address opens the reader there in a new tab too.
    const href = await web.page.$eval(citation, (node) => (node as HTMLAnchorElement).href);
    const tab = await web.rig.browser.newPage();
    try {
      await tab.goto(href);
      await tab.waitForSelector('.reader-body .reader-mark[data-line="3"]', { timeout: STEP_MS });
      expect(await tab.$eval('#reader-heading', (node) => node.textContent)).toBe('notes/a.md');
    } finally {
      await tab.close();
    }
    // The 1280 px picture: the conversation first, the documents and the reader beside it.
    await web.page.screenshot({ path: join(SHOTS, 'web-documents-1280.png') });
    // The tool line's file opens the reader at its start.
    await web.page.click('.reader-close');
    await web.page.click('.live .turn:last-child .tool a.file-link');
    await web.page.waitForFunction(
      () =>
        document.querySelector('#reader-heading')?.textContent === 'notes/a.md' &&
        document.querySelector('.reader-body h1') !== null,
      { timeout: STEP_MS },
    );
  });

  it('builds the learning context from the documents picked in the tree, and attaches them to the next request', async () => {
    await web.page.click('input.pick[data-path="notes/plan.md"]');
    await web.page.waitForSelector('.composer .attached a[data-reader-path="notes/plan.md"]', {
      timeout: STEP_MS,
    });
    // The picked documents are also the sources of a learning-context build.
    await web.page.click('.picked button:not(.link)');
    await web.page.waitForFunction(
      () =>
        document
          .querySelector('.documents')
          ?.textContent?.includes('Learning context built from 1 document'),
      { timeout: STEP_MS },
    );
    expect(
      (
        await repaJson<{ learningContext: { sources: string[] } | null }>(sandbox, [
          'context',
          'show',
          '--space',
          sandbox.space,
        ])
      ).json.learningContext?.sources,
    ).toEqual(['notes/plan.md']);
    await sendMessage(web.page, 'Make me a study plan.');
    await lastTurnReaches(web.page, 'succeeded');
    // What the build said stays when the files are listed again (a run ended): a listing clears only
    // its own error. (It cleared the build's words, so on a loaded machine the wait above could
    // miss them: the listing after the build's own refresh came before the page was looked at.)
    expect(await web.page.$eval('.documents', (node) => node.textContent)).toContain(
      'Learning context built from 1 document',
    );
    // The sent message shows what went with it, a link to the reader.
    expect(
      await web.page.$eval('.live .turn:last-child .attachments-sent', (node) => [
        node.textContent,
        node.querySelector('a.file-link')?.getAttribute('data-reader-path'),
      ]),
    ).toEqual(['Attached: notes/plan.md', 'notes/plan.md']);
    const runId = await web.page.$eval('.live .turn:last-child', (node) =>
      node.getAttribute('data-run'),
    );
    const shown = await repaJson<{
      run: { input: { attachments?: { path: string }[] }; attachedSources?: { path: string }[] };
    }>(sandbox, ['runs', 'show', runId ?? '']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json.run.input.attachments).toEqual([{ path: 'notes/plan.md' }]);
    expect(shown.json.run.attachedSources?.map((source) => source.path)).toEqual(['notes/plan.md']);
    // Sent: the next message goes without it.
    expect(await web.page.$('.composer .attached')).toBeNull();
    expect(
      await web.page.$eval(
        'input.pick[data-path="notes/plan.md"]',
        (node) => (node as HTMLInputElement).checked,
      ),
    ).toBe(false);
  }, 60_000);
});
