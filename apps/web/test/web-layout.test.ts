/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// Where the page puts things. On a phone (390 px): the views beside the conversation are reached by
// tabs at the top, not after the whole conversation, and a citation opens the reader over the
// conversation, which closes back to the same place. At any width, a message sent brings the
// conversation to its end, and a compaction's summary reads as a summary. One daemon and one browser; the steps build on each other.

const web = useWebRig({
  prepare: (sandbox) => {
    writeFiles(sandbox.space, {
      'notes/a.md': '# Tides\n\nThe Moon pulls the sea.\nThe tide turns every six hours.\n',
    });
    // Pi's compaction keeping little, so a short conversation has an older part to summarise.
    writeFileSync(
      join(sandbox.agentDir, 'settings.json'),
      JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
    );
  },
});
/** Where the pictures go. */
const { sandbox } = web;
const SHOTS = web.shots;

/** Whether `selector`'s box is on screen (some of it between the top and the bottom). */
const onScreen = (selector: string) =>
  web.page.evaluate((wanted) => {
    const box = document.querySelector(wanted)?.getBoundingClientRect();
    return box !== undefined && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
  }, selector);

/** Whether what shows at the middle of the screen is inside `selector` (not covered by anything). */
const atMiddle = (selector: string) =>
  web.page.evaluate(
    (wanted) =>
      document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)?.closest(wanted) !=
      null,
    selector,
  );

/** How far (px) the newest turn's end is above the message box (the conversation's end). */
const endGap = () =>
  web.page.evaluate(() => {
    const turns = document.querySelectorAll('.thread .turn');
    const newest = turns[turns.length - 1]?.getBoundingClientRect();
    const thread = document.querySelector('.thread')?.getBoundingClientRect();
    const box = document.querySelector('.composer')?.getBoundingClientRect();
    if (!newest || !box || !thread) return Number.NaN;
    return Math.min(box.top, thread.bottom) - newest.bottom;
  });

describe('the page at 1280 px', () => {
  it('brings the conversation to its end when a message is sent, wherever it was scrolled', async () => {
    for (let turn = 1; turn <= 4; turn++) {
      await sendMessage(web.page, `What does notes/a.md say about the tide? (${turn})`);
      await lastTurnReaches(web.page, 'succeeded');
    }
    await web.page.$eval('.thread', (node) => node.scrollTo({ top: 0 }));
    expect(await endGap()).toBeLessThan(-200);
    await sendMessage(web.page, 'And the Moon?');
    await lastTurnReaches(web.page, 'succeeded');
    const gap = await endGap();
    expect(gap).toBeGreaterThanOrEqual(-1);
    expect(gap).toBeLessThanOrEqual(48);
  });
});

describe('the page at 390 px', () => {
  it('brings the page to the conversation’s end when a message is sent from its top', async () => {
    await web.page.setViewport({ width: 390, height: 844 });
    // The phone layout lands a frame later (its resize observers may keep the conversation at its
    // end): scroll to the top only once two frames have passed at the new width.
    await web.page.waitForFunction(() => window.innerWidth === 390, { timeout: STEP_MS });
    await web.page.evaluate(
      () =>
        new Promise<void>((done) =>
          requestAnimationFrame(() => requestAnimationFrame(() => done())),
        ),
    );
    await web.page.evaluate(() => window.scrollTo(0, 0));
    expect(await endGap()).toBeLessThan(-200);
    await sendMessage(web.page, 'And the sea?');
    await lastTurnReaches(web.page, 'succeeded');
    const gap = await endGap();
    expect(gap).toBeGreaterThanOrEqual(-1);
    expect(gap).toBeLessThanOrEqual(48);
  });

  it('reaches documents, runs, settings and models by tabs at the top, and comes back to the conversation where it was', async () => {
    // A long conversation: the page scrolls, and the views are still one tap away at the top.
    expect(await web.page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(
      2 * 844,
    );
    await web.page.evaluate(() => window.scrollTo(0, 800));
    const before = await web.page.evaluate(() => window.scrollY);
    expect(await onScreen('.view-switch [data-view="runs"]')).toBe(true);
    await web.page.click('.view-switch [data-view="runs"]');
    await web.page.waitForSelector('#view-runs .runs-view', { visible: true, timeout: STEP_MS });
    expect(await atMiddle('.panels')).toBe(true);
    await web.page.screenshot({ path: join(SHOTS, 'web-390-runs.png') as `${string}.png` });
    for (const view of ['settings', 'models', 'study']) {
      await web.page.click(`.view-switch [data-view="${view}"]`);
      await web.page.waitForSelector(`#view-${view}`, { visible: true, timeout: STEP_MS });
      expect(await atMiddle('.panels')).toBe(true);
    }
    await web.page.click('.view-switch [data-view="conversation"]');
    await web.page.waitForSelector('#view-study', { hidden: true, timeout: STEP_MS });
    expect(await atMiddle('.thread')).toBe(true);
    expect(await web.page.evaluate(() => window.scrollY)).toBe(before);
  });

  it('opens a citation in the reader over the conversation, and closes back to the same place', async () => {
    const citation = '.live .turn:nth-last-child(4) .markdown a.file-link[data-reader-line]';
    await web.page.$eval(citation, (node) => node.scrollIntoView({ block: 'center' }));
    const before = await web.page.evaluate(() => window.scrollY);
    await web.page.screenshot({ path: join(SHOTS, 'web-390-conversation.png') as `${string}.png` });
    await web.page.click(citation);
    await web.page.waitForSelector('.reader-body .reader-mark', {
      visible: true,
      timeout: STEP_MS,
    });
    await web.page.screenshot({ path: join(SHOTS, 'web-390-reader.png') as `${string}.png` });
    expect(await web.page.$eval('.reader-body .reader-mark', (node) => node.textContent)).toContain(
      'The tide turns every six hours.',
    );
    expect(await onScreen('.reader-body .reader-mark')).toBe(true);
    expect(await atMiddle('.panels')).toBe(true);
    expect(await onScreen('#reader-heading')).toBe(true);
    await web.page.screenshot({ path: join(SHOTS, 'web-390-reader.png') as `${string}.png` });
    await web.page.click('.reader-close');
    await web.page.waitForSelector('#view-study', { hidden: true, timeout: STEP_MS });
    expect(await onScreen(citation)).toBe(true);
    expect(await web.page.evaluate(() => window.scrollY)).toBe(before);
    // The keyboard too: Escape closes the reader and gives the place back.
    await web.page.click(citation);
    await web.page.waitForSelector('.reader-body .reader-mark', {
      visible: true,
      timeout: STEP_MS,
    });
    await web.page.keyboard.press('Escape');
    await web.page.waitForSelector('#view-study', { hidden: true, timeout: STEP_MS });
    expect(await web.page.evaluate(() => window.scrollY)).toBe(before);
  });

  it('shows a compaction summary rendered, its files as reader links and no tags meant for the model', async () => {
    const compacted = await repaJson(sandbox, ['sessions', 'compact', '--space', sandbox.space]);
    expect(compacted.code, compacted.stderr).toBe(0);
    await web.page.reload();
    await web.page.waitForSelector('.notice.compaction details', { timeout: STEP_MS });
    await web.page.$eval('.notice.compaction details', (node) => {
      (node as HTMLDetailsElement).open = true;
    });
    const summary = await web.page.$eval('.notice.compaction details', (node) => ({
      text: node.textContent ?? '',
      rendered: node.querySelector('.markdown') !== null,
      read: [...node.querySelectorAll('.files-read a.file-link')].map((link) =>
        link.getAttribute('data-reader-path'),
      ),
    }));
    expect(summary.rendered).toBe(true);
    expect(summary.text).not.toMatch(/<\/?(read|modified)-files>/u);
    expect(summary.text).toContain('Files read: notes/a.md');
    expect(summary.read).toEqual(['notes/a.md']);
  });
});
