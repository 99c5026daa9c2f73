/// <reference lib="dom" />
import { join } from 'node:path';
import { citedCard } from '@repa/fixtures';
import type { StudyProgress } from '@repa/protocol';
import { repaJson, writeFiles } from '@repa/test-kit';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { STEP_MS, shownText, useWebRig, waitShownText } from './web-harness.js';

// The Study view on a real daemon: hand-written cards in three syntaxes in real notes, one citing a
// passage edited since the card was written; reviewed with the keyboard and the mouse at 1280 px,
// then at 390 px through the phone's view switch. One daemon and one browser.

const ATP = 'line one\nATP stores energy.\nIt is made in mitochondria.\nline four\n';

/** A note of three cards (basic citing `src/atp.md:2-3`, multi-line, cloze) with card ids `prefix…`. */
const note = (prefix: string, topic: string) =>
  [
    `# ${topic} #bio`,
    '',
    citedCard({
      id: `${prefix}card001`,
      front: `What is ATP (${topic})?::The energy currency of the cell`,
      document: 'src/atp.md',
      text: ATP,
      from: 2,
      to: 3,
    }),
    `Name the stages of mitosis (${topic})`,
    '?',
    'Prophase, metaphase, anaphase, telophase',
    '',
    `The ==nucleus== holds the DNA (${topic}).`,
    '',
  ].join('\n');

const web = useWebRig({
  prepare: (sandbox) =>
    writeFiles(sandbox.space, {
      'notes/bio.md': note('wide', 'wide'),
      // The cited passage, edited since the cards were written.
      'src/atp.md': ATP.replace('stores energy', 'stores phosphate'),
    }),
});
const { sandbox, shots: SHOTS } = web;
let page: Page;

beforeAll(() => {
  page = web.page;
});

// innerText: the text as it shows (hidden parts left out, blocks apart), which is what is checked.
const text = (selector: string) => shownText(page, selector);
const textsOf = (selector: string) =>
  page.$$eval(selector, (nodes) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, hidden parts left out
    nodes.map((node) => (node as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
  );
const waitText = (selector: string, pattern: RegExp) => waitShownText(page, selector, pattern);
const shot = (name: string) =>
  page.screenshot({ path: join(SHOTS, name) as `${string}.png`, fullPage: false });

async function status(): Promise<number[]> {
  const shown = await repaJson<{ sources: StudyProgress[] }>(sandbox, ['study', 'status']);
  const total = (key: 'new' | 'learning' | 'review' | 'due') =>
    shown.json.sources.reduce((sum, one) => sum + one[key], 0);
  return [total('new'), total('learning'), total('review'), total('due')];
}

/** Card 1 of 3: source changed with its old and new lines, the cited lines beside it. */
async function firstCardShowsItsSource(topic: string): Promise<void> {
  await waitText('.study-progress', /^Card 1 of 3/);
  expect(await text('.study-front')).toBe(`What is ATP (${topic})?`);
  expect(await text('.study-changed')).toBe(
    'Source changed: src/atp.md:2-3 no longer reads as when the card was written. Was: ATP stores energy. It is made in mitochondria. Now: ATP stores phosphate. It is made in mitochondria.',
  );
  await waitText('.study-lines', /phosphate/);
  expect(await textsOf('.study-lines li')).toEqual([
    '2 ATP stores phosphate.',
    '3 It is made in mitochondria.',
  ]);
  expect(await page.$('.study-back')).toBeNull();
}

describe('the Study view at 1280 px', () => {
  it('reviews three cards by keyboard and mouse: counts per source, source changed, intervals, undo, summary; keys never while typing', async () => {
    await page.click('#tab-review');
    await page.waitForSelector('.study-sources tbody tr', { timeout: STEP_MS });
    expect(await textsOf('.study-sources tbody tr')).toEqual(
      expect.arrayContaining(['src/atp.md 1 0 0 1 1', 'notes/bio.md 2 0 0 2']),
    );
    await firstCardShowsItsSource('wide');

    // Typing in the message box reaches the box, not the card.
    await page.focus('#message');
    await page.keyboard.type(' 1u');
    expect(await page.$eval('#message', (box) => (box as HTMLTextAreaElement).value)).toBe(' 1u');
    expect(await page.$('.study-back')).toBeNull();
    await page.$eval('#message', (box) => {
      (box as HTMLTextAreaElement).value = '';
    });

    await page.click('#tab-review');
    await page.keyboard.press('Space');
    await waitText('.study-back', /^The energy currency of the cell$/);
    const ratings = await textsOf('.study-ratings button');
    expect(ratings.slice(0, 3)).toEqual(['1 Again 1m', '2 Hard 6m', '3 Good 10m']);
    expect(ratings[3]).toMatch(/^4 Easy \d+d$/);
    await shot('web-study-1280-card.png');
    await page.keyboard.press('3');

    await waitText('.study-progress', /^Card 2 of 3/);
    expect(await text('.study-view .panel-message')).toBe('Good: due in 10m.');
    expect(await text('.study-source')).toBe(
      'Written by hand in notes/bio.md; it cites no passage.',
    );
    await page.keyboard.press('Space');
    await waitText('.study-back', /^Prophase/);
    await page.keyboard.press('1');
    await waitText('.study-progress', /^Card 3 of 3/);
    await page.keyboard.press('u');
    await waitText('.study-view .panel-message', /^Took back Again on card 2\.$/);
    await waitText('.study-progress', /^Card 2 of 3/);
    await page.keyboard.press('Space');
    await waitText('.study-back', /^Prophase/);
    await page.keyboard.press('4');

    // Card 3 (cloze) with the mouse.
    await waitText('.study-progress', /^Card 3 of 3/);
    expect(await text('.study-front')).toBe('The [...] holds the DNA (wide).');
    await page.click('.study-show');
    await waitText('.study-back', /^nucleus$/);
    await page.click('.study-ratings button[data-rating="3"]');
    await waitText('.study-summary', /[Dd]ue now/);
    expect(await textsOf('.study-summary p')).toEqual([
      'Rated 3 of 3 cards: 0 again, 0 hard, 2 good, 1 easy.',
      expect.stringMatching(/^Nothing is due now; the next card is due in (9|10)m\.$/),
    ]);
    await shot('web-study-1280-summary.png');
    // The daemon's record: two cards learning, one in review; the undone Again is gone.
    expect(await status()).toEqual([0, 2, 1, 0]);
  });
});

describe('the Study view at 390 px', () => {
  it('reviews three new cards through the view switch, and its source link opens the reader', async () => {
    writeFiles(sandbox.space, { 'notes/more.md': note('narrow', 'narrow') });
    await page.setViewport({ width: 390, height: 844 });
    await page.click('.view-switch .tab[data-view="review"]');
    await page.click('.study-again'); // Check for due cards.
    await firstCardShowsItsSource('narrow');
    // Nothing sideways: the view fits the phone.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);

    // The source opens in the reader (the documents view), with the cited lines marked.
    await page.click('.study-source figcaption a');
    await page.waitForSelector('.reader .reader-mark', { timeout: STEP_MS });
    expect(await textsOf('.reader .reader-mark')).toEqual([
      expect.stringContaining('ATP stores phosphate.'),
      expect.stringContaining('It is made in mitochondria.'),
    ]);
    await page.click('.view-switch .tab[data-view="review"]');

    await page.keyboard.press('Space');
    await waitText('.study-back', /^The energy currency of the cell$/);
    await shot('web-study-390-card.png');
    await page.keyboard.press('3');
    await waitText('.study-progress', /^Card 2 of 3/);
    await page.keyboard.press('Space');
    await page.keyboard.press('4');
    await waitText('.study-progress', /^Card 3 of 3/);
    await page.click('.study-show');
    await page.click('.study-ratings button[data-rating="2"]');
    await waitText('.study-summary', /[Dd]ue now/);
    expect(await textsOf('.study-summary p')).toEqual([
      'Rated 3 of 3 cards: 0 again, 1 hard, 1 good, 1 easy.',
      expect.stringMatching(/^Nothing is due now; the next card is due in \d+m\.$/),
    ]);
    await shot('web-study-390-summary.png');
    expect(await status()).toEqual([0, 4, 2, 0]);
  });
});
