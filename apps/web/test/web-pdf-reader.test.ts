/// <reference lib="dom" />
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnthropicEndpoint, makePdf, startAnthropicEndpoint } from '@repa/fixtures';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// The reader shows a PDF as its pages (pdf.js in the page, its bytes and worker from the daemon):
// a citation `book.pdf#p4:3-9` in an answer opens page 4 drawn with the cited lines marked on it,
// at 1280 and 390 px; pages, zoom and keys; a 311-page PDF opens at its first page without drawing
// the rest. The answer comes from a local endpoint speaking the Anthropic protocol after a real
// `read` of the page, so the citation is checked by the daemon against the extracted text. One
// daemon and one browser; the steps build on each other.

/** Page `n`'s lines (from 1): words a line of another page never has. */
const linesOf = (page: number) =>
  Array.from(
    { length: 12 },
    (_, index) => `Page ${page} line ${index + 1}: tide note ${'x'.repeat(index)}`,
  );
const CITED = linesOf(4).slice(2, 9);
const CITATION = `[book.pdf#p4:3-9 "${CITED[0]}"]`;
const LONG_PAGES = 311;

let endpoint: AnthropicEndpoint;
const web = useWebRig({
  model: 'local/claude-local',
  prepare: async (sandbox) => {
    writeFileSync(
      join(sandbox.space, 'book.pdf'),
      makePdf(Array.from({ length: 6 }, (_, index) => ({ lines: linesOf(index + 1) }))),
    );
    writeFileSync(
      join(sandbox.space, 'manual.pdf'),
      makePdf(
        Array.from({ length: LONG_PAGES }, (_, index) => ({
          lines: Array.from(
            { length: 40 },
            (_, line) => `Manual page ${index + 1}, line ${line + 1}`,
          ),
        })),
      ),
    );
    writeFileSync(join(sandbox.space, 'notes.md'), '# Notes\n');
    // A PDF outside the space, and a link to it from inside: never served.
    mkdirSync(join(sandbox.root, 'outside'));
    writeFileSync(join(sandbox.root, 'outside', 'secret.pdf'), makePdf([{ lines: ['Secret'] }]));
    symlinkSync(join(sandbox.root, 'outside', 'secret.pdf'), join(sandbox.space, 'linked.pdf'));
    endpoint = await startAnthropicEndpoint([
      {
        kind: 'message',
        blocks: [{ type: 'tool_use', name: 'read', input: { path: 'book.pdf', pages: '4' } }],
      },
      {
        kind: 'message',
        blocks: [{ type: 'text', text: `Page four lists the tide notes ${CITATION}.` }],
      },
    ]);
    endpoint.configure(sandbox.agentDir, { apiKey: 'local-key' });
  },
  cleanup: () => endpoint?.close(),
});
const SHOTS = web.shots;
const CHIP_LINK = '.live .turn:last-child .citation-chip a.file-link';

/** Waits until page `page` is drawn with marked lines, and gives the marked text by line. */
async function markedLines(page: Page, number: number): Promise<string[]> {
  await page.waitForSelector(`.pdf-page[data-page="${number}"][data-rendered] .pdf-mark`, {
    timeout: STEP_MS,
  });
  return page.$eval(`.pdf-page[data-page="${number}"]`, (node) => {
    const lines = new Map<string, string>();
    for (const span of node.querySelectorAll<HTMLElement>('.textLayer .pdf-mark')) {
      const line = span.dataset.line ?? '';
      lines.set(line, (lines.get(line) ?? '') + span.textContent);
    }
    return [...lines.values()].map((line) => line.trimEnd());
  });
}

/**
 * The highlight as drawn on screen, from a screenshot of the screen: the marked spans of page
 * `number`'s text layer give the boxes of the cited lines; gives the share of those boxes' pixels
 * showing the highlight colour, and how many pixels of the reader's pages show it outside the box
 * around them all (by 3 px).
 */
async function highlight(page: Page, number: number, shot: string) {
  const png = await page.screenshot({
    path: shot as `${string}.png`,
    captureBeyondViewport: false,
  });
  return page.evaluate(
    async (data: string, wanted: number) => {
      const view = document.querySelector('.pdf-scroller')?.getBoundingClientRect();
      const spans = document.querySelectorAll(
        `.pdf-page[data-page="${wanted}"] .textLayer .pdf-mark`,
      );
      if (!view) throw new Error('no pages');
      const boxes = [...spans].map((span) => span.getBoundingClientRect());
      const all = {
        left: Math.min(...boxes.map((box) => box.left)) - 3,
        top: Math.min(...boxes.map((box) => box.top)) - 3,
        right: Math.max(...boxes.map((box) => box.right)) + 3,
        bottom: Math.max(...boxes.map((box) => box.bottom)) + 3,
      };
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no canvas');
      context.drawImage(image, 0, 0);
      const { data: pixels } = context.getImageData(0, 0, image.width, image.height);
      // The screenshot is in device pixels: CSS pixels are scaled to them.
      const scale = image.width / window.innerWidth;
      const within = (box: typeof all, x: number, y: number) =>
        x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
      let inside = 0;
      let insideMarked = 0;
      let outsideMarked = 0;
      for (let y = 0; y < image.height; y++) {
        for (let x = 0; x < image.width; x++) {
          const at = (y * image.width + x) * 4;
          const [r = 0, g = 0, b = 0] = [pixels[at], pixels[at + 1], pixels[at + 2]];
          // The yellow wash over white paper (255, 230, 140) or over black glyphs (115, 90, 0).
          const yellow = r - b > 80 && g - b > 60 && r > 100;
          const [px, py] = [x / scale, y / scale];
          if (boxes.some((box) => within(box, px, py))) {
            inside += 1;
            if (yellow) insideMarked += 1;
          } else if (yellow && within(view, px, py) && !within(all, px, py)) outsideMarked += 1;
        }
      }
      return {
        height: all.bottom - all.top,
        insideShare: insideMarked / Math.max(inside, 1),
        outsideMarked,
      };
    },
    Buffer.from(png).toString('base64'),
    number,
  );
}

/**
 * Page 4 drawn with the cited lines marked: the marked spans read the lines the daemon verified
 * the citation against, and on the screen (saved as `shot`) the highlight's colour fills their
 * boxes, seven lines high, and shows nowhere else on the pages.
 */
async function expectCitedLinesMarked(shot: string): Promise<void> {
  expect(await markedLines(web.page, 4)).toEqual(CITED);
  const { height, insideShare, outsideMarked } = await highlight(web.page, 4, join(SHOTS, shot));
  expect(height).toBeGreaterThan(7 * 5);
  expect(insideShare).toBeGreaterThan(0.8);
  expect(outsideMarked).toBe(0);
}

describe("a PDF's bytes for the reader", () => {
  it('are served to the page from the space through the store (no link out, PDFs only, the page only)', async () => {
    const fetched = (path: string) =>
      web.page.evaluate(
        async (space: string, wanted: string) => {
          const response = await fetch(`/pdf?${new URLSearchParams({ space, path: wanted })}`);
          const type = response.headers.get('content-type') ?? '';
          return {
            status: response.status,
            type,
            head: type.startsWith('application/pdf')
              ? new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5))
              : ((await response.json()) as { code?: string }).code,
          };
        },
        web.sandbox.space,
        path,
      );
    expect(await fetched('book.pdf')).toEqual({
      status: 200,
      type: 'application/pdf',
      head: '%PDF-',
    });
    expect(await fetched('linked.pdf')).toMatchObject({ status: 400, head: 'path_outside_space' });
    expect(await fetched('notes.md')).toMatchObject({ status: 400, head: 'unsupported_content' });
    expect(await fetched('gone.pdf')).toMatchObject({ status: 404, head: 'not_found' });
    // Without the page's cookie: refused like every request.
    const address = new URL(web.page.url());
    const bare = await fetch(
      `${address.origin}/pdf?${new URLSearchParams({ space: web.sandbox.space, path: 'book.pdf' })}`,
    );
    expect(bare.status).toBe(401);
  });
});

describe('the reader of a PDF', () => {
  it('opens a citation at its page drawn, the cited lines (as the extraction numbers them) marked over them, at 1280 px', async () => {
    await sendMessage(web.page, 'What does book.pdf say about tides?');
    await lastTurnReaches(web.page, 'succeeded');
    await web.page.waitForSelector('.live .turn:last-child .citation-chip.verified', {
      timeout: STEP_MS,
    });
    await web.page.click('.live .turn:last-child .citation-chip summary');
    await web.page.click(CHIP_LINK);
    await expectCitedLinesMarked('pdf-1280.png');
    // The text layer is text: selecting a cited line gives its words.
    const selected = await web.page.$eval('.pdf-page[data-page="4"]', (node) => {
      const span = node.querySelector<HTMLElement>('.textLayer .pdf-mark');
      const range = document.createRange();
      if (span) range.selectNodeContents(span);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      return getSelection()?.toString();
    });
    expect(selected).toBe(CITED[0]);
    // Every page has its box; only those near the view are drawn.
    expect(await web.page.$$eval('.pdf-page', (pages) => pages.length)).toBe(6);
    expect(
      await web.page.$$eval('.pdf-page[data-rendered]', (pages) =>
        pages.map((page) => Number((page as HTMLElement).dataset.page)),
      ),
    ).not.toContain(1);
  }, 60_000); // A run first: on a busy machine it takes long.

  it('moves between pages with the page box, the buttons and the keys (n, p, PageDown, PageUp), and zooms', async () => {
    const box = () => web.page.$eval('#pdf-page-box', (node) => (node as HTMLInputElement).value);
    await web.page.focus('.pdf-scroller');
    await web.page.keyboard.press('n');
    expect(await box()).toBe('5');
    await web.page.keyboard.press('PageDown');
    expect(await box()).toBe('6');
    await web.page.keyboard.press('PageUp');
    await web.page.keyboard.press('p');
    expect(await box()).toBe('4');
    await web.page.click('.pdf-tools [aria-label="Next page"]');
    expect(await box()).toBe('5');
    await web.page.click('#pdf-page-box', { count: 3 });
    await web.page.keyboard.type('2');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector('.pdf-page[data-page="2"][data-rendered]', { timeout: STEP_MS });
    expect(await box()).toBe('2');
    // The page asked for is at the top of the reader's view.
    expect(
      await web.page.$eval('.pdf-page[data-page="2"]', (node) => {
        const scroller = node.closest('.pdf-scroller')?.getBoundingClientRect();
        return Math.round(node.getBoundingClientRect().top - (scroller?.top ?? 0));
      }),
    ).toBeLessThan(12);
    const width = () => web.page.$eval('.pdf-page[data-page="2"]', (node) => node.clientWidth);
    /** Waits until page 2's width is no longer `than` (a zoom lays the pages out anew). */
    const widthOtherThan = (than: number) =>
      web.page.waitForFunction(
        (old) => document.querySelector('.pdf-page[data-page="2"]')?.clientWidth !== old,
        { timeout: STEP_MS, polling: 50 },
        than,
      );
    const fitted = await width();
    await web.page.click('.pdf-tools [aria-label="Zoom in"]');
    await widthOtherThan(fitted);
    const zoomed = await width();
    expect(zoomed / fitted).toBeCloseTo(1.25, 1);
    await web.page.focus('.pdf-scroller');
    await web.page.keyboard.press('-');
    await widthOtherThan(zoomed);
    expect(await width()).toBeCloseTo(fitted, -1);
    await web.page.click('.pdf-tools [aria-label="Zoom in"]');
    await widthOtherThan(fitted);
    await web.page.click('.pdf-tools [aria-pressed="false"]');
    expect(await web.page.$eval('.pdf-tools [aria-pressed]', (node) => node.textContent)).toBe(
      'Fit width',
    );
    // Fitting lays the pages out anew: page 2 is as wide as it first was (a timeout if never).
    await web.page.waitForFunction(
      (wanted) => document.querySelector('.pdf-page[data-page="2"]')?.clientWidth === wanted,
      { timeout: STEP_MS, polling: 50 },
      fitted,
    );
  });
});

describe('the reader of a PDF on a phone (390 px)', () => {
  it('opens a citation over the conversation at its page, the lines marked, and closes back to the same place', async () => {
    await web.page.click('.reader-close');
    // More answers, so the conversation scrolls.
    for (const words of ['Which page has tides?', 'And the notes?', 'Once more?']) {
      await sendMessage(web.page, words);
      await lastTurnReaches(web.page, 'succeeded');
    }
    await web.page.setViewport({ width: 390, height: 844 });
    const link = '.live .turn:nth-child(2) .markdown a.file-link[data-reader-page]';
    await web.page.$eval(link, (node) => node.scrollIntoView({ block: 'center' }));
    const before = await web.page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(0);
    await web.page.click(link);
    await expectCitedLinesMarked('pdf-390.png');
    // The reader covers the conversation, which has kept its place under it.
    expect(
      await web.page.evaluate(
        () =>
          document
            .elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)
            ?.closest('.panels') != null,
      ),
    ).toBe(true);
    await web.page.click('.reader-close');
    await web.page.waitForSelector('#view-study', { hidden: true, timeout: STEP_MS });
    expect(await web.page.evaluate(() => window.scrollY)).toBe(before);
    // Escape too.
    await web.page.click(link);
    await markedLines(web.page, 4);
    await web.page.keyboard.press('Escape');
    await web.page.waitForSelector('#view-study', { hidden: true, timeout: STEP_MS });
    expect(await web.page.evaluate(() => window.scrollY)).toBe(before);
  }, 90_000); // Three runs first.
});

describe('a long PDF in the reader', () => {
  it('opens a 311-page PDF at its first page drawn, the others only sized until they come into view', async () => {
    await web.page.setViewport({ width: 1280, height: 900 });
    await web.page.waitForSelector('a.file-link[data-reader-path="manual.pdf"]', {
      visible: true,
      timeout: STEP_MS,
    });
    const started = Date.now();
    await web.page.click('a.file-link[data-reader-path="manual.pdf"]');
    await web.page.waitForSelector('.pdf-page[data-page="1"][data-rendered]', { timeout: STEP_MS });
    // Measured, not asserted (a shared machine): `npm run bench page` holds the goal.
    console.log(`311-page PDF: first page drawn ${Date.now() - started} ms after the click`);
    const drawn = () =>
      web.page.$$eval('.pdf-page[data-rendered]', (pages) =>
        pages.map((page) => Number((page as HTMLElement).dataset.page)),
      );
    expect(await web.page.$$eval('.pdf-page', (pages) => pages.length)).toBe(LONG_PAGES);
    expect((await drawn()).every((page) => page <= 3)).toBe(true);
    await web.page.screenshot({ path: join(SHOTS, 'pdf-311.png') as `${string}.png` });
    await web.page.click('#pdf-page-box', { count: 3 });
    await web.page.keyboard.type('200');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector('.pdf-page[data-page="200"][data-rendered]', {
      timeout: STEP_MS,
    });
    await web.page.waitForFunction(
      () => document.querySelector('.pdf-page[data-page="1"][data-rendered]') === null,
      { timeout: STEP_MS },
    );
    expect((await drawn()).every((page) => page >= 198 && page <= 202)).toBe(true);
  });
});
