/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeScannedPdf } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, shownText, useWebRig } from './web-harness.js';

// A long first read shown on the page (design R122): a scanned PDF of 12 pages, read by OCR on the
// offline responder's run, shows its pages done of the whole in the thread as a progress bar whose
// values move, and the run's Cancel below it stops the read. One daemon, one Chromium.

/** The pages of a scan: each a few lines in big letters, so that every page takes OCR a moment. */
const PAGES = 12;
const scan = (topic: string) =>
  makeScannedPdf(
    Array.from({ length: PAGES }, (_, page) => ({
      lines: Array.from(
        { length: 6 },
        (_, line) => `${topic} page ${page + 1} line ${line + 1} moves water`,
      ),
    })),
  );

const web = useWebRig({
  prepare: async (sandbox) => {
    writeFileSync(join(sandbox.space, 'osmosis.pdf'), await scan('Osmosis'));
    writeFileSync(join(sandbox.space, 'diffusion.pdf'), await scan('Diffusion'));
  },
});

const BAR = '.live .turn:last-child .tool-progress [role="progressbar"]';

/** From now on, every `aria-valuenow` the last turn's progress bar takes, in order. */
async function recordProgress(): Promise<void> {
  await web.page.evaluate((bar) => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    const look = () => {
      const now = document.querySelector(bar)?.getAttribute('aria-valuenow');
      if (now != null && seen.at(-1) !== now) seen.push(now);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  }, BAR);
}

const progressSeen = () =>
  web.page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);

/** The shown bar's accessible values. */
const barValues = () =>
  web.page.$eval(BAR, (node) => ({
    min: node.getAttribute('aria-valuemin'),
    max: node.getAttribute('aria-valuemax'),
    text: node.getAttribute('aria-valuetext'),
    label: node.getAttribute('aria-label'),
  }));

describe('repa web, a long first read', () => {
  it('at 1280 px: shows the pages read of the whole in the thread, the bar moving until the read ends', async () => {
    await recordProgress();
    await sendMessage(web.page, 'What does osmosis.pdf say?');
    await web.page.waitForSelector(BAR, { timeout: STEP_MS });
    expect(await barValues()).toMatchObject({
      min: '0',
      max: String(PAGES),
      label: 'Reading osmosis.pdf',
      text: expect.stringMatching(new RegExp(`^\\d+ of ${PAGES} pages$`, 'u')),
    });
    await web.page.waitForFunction(
      (bar) => Number(document.querySelector(bar)?.getAttribute('aria-valuenow')) > 0,
      { timeout: 60_000, polling: 50 },
      BAR,
    );
    const words = await shownText(web.page, '.live .turn:last-child .progress-words');
    expect(words).toMatch(new RegExp(`^Reading osmosis\\.pdf: \\d+ of ${PAGES} pages$`, 'u'));
    await web.page.screenshot({
      path: join(web.shots, 'web-reading-progress-1280.png') as `${string}.png`,
    });
    await web.page.waitForFunction(
      () =>
        document.querySelector('.live .turn:last-child')?.getAttribute('data-status') ===
        'succeeded',
      { timeout: 90_000, polling: 100 },
    );
    // The bar took several values on its way, each more than the one before, and left with the read.
    const seen = (await progressSeen()).map(Number);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(0)).toBeLessThan(PAGES);
    expect(await web.page.$(BAR)).toBeNull();
    expect(await web.page.$eval('.live .turn:last-child', (node) => node.textContent)).toContain(
      'Osmosis page 1 line 1 moves water',
    );
  }, 150_000);

  it('at 390 px: the run’s Cancel below the bar cancels the read', async () => {
    await web.page.setViewport({ width: 390, height: 844 });
    await sendMessage(web.page, 'What does diffusion.pdf say?');
    await web.page.waitForSelector(BAR, { timeout: STEP_MS });
    await web.page.screenshot({
      path: join(web.shots, 'web-reading-progress-390.png') as `${string}.png`,
    });
    // The run's Cancel, just below the bar.
    await web.page.click('.live .turn:last-child button.cancel');
    await lastTurnReaches(web.page, 'cancelled');
    expect(await web.page.$(BAR)).toBeNull();
  }, 90_000);
});
