/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CELLS_NOTE } from '@repa/fixtures';
import { studyLog, writeFiles } from '@repa/test-kit';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { STEP_MS, shownText, useWebRig, waitShownText } from './web-harness.js';

// The page's Quiz on a real daemon and the offline responder: cloze questions on a real note,
// answered by keyboard at 1280 px (a wrong answer, its hint, the second try, the passage, the
// learner's own grade, a card) and at 390 px through the phone's view switch.

const web = useWebRig({
  prepare: (sandbox) => writeFiles(sandbox.space, { 'notes/cells.md': CELLS_NOTE }),
});
const { sandbox, shots: SHOTS } = web;
let page: Page;

beforeAll(() => {
  page = web.page;
});

const text = (selector: string) => shownText(page, selector);
const waitText = (selector: string, pattern: RegExp) => waitShownText(page, selector, pattern);
/** Waits until the answer field has the focus (it is enabled once nothing is being done). */
const answerFocused = () =>
  page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'answer', {
    timeout: STEP_MS,
  });
const shot = (name: string) =>
  page.screenshot({ path: join(SHOTS, name) as `${string}.png`, fullPage: false });

describe('the Quiz', () => {
  it('runs a quiz by keyboard: hint and second try, the passage, an own grade, a card, a summary', async () => {
    await page.click('#tab-review');
    // The Study view's code loads with its first opening.
    await page.waitForSelector('.quiz-start input[name="passage"]', { timeout: STEP_MS });
    await page.type('.quiz-start input[name="passage"]', 'notes/cells.md:3-4');
    await page.$eval('.quiz-start input[name="count"]', (node) => {
      (node as HTMLInputElement).select();
    });
    await page.type('.quiz-start input[name="count"]', '2');
    await page.keyboard.press('Enter');
    await waitText('.quiz-question', /Question 1 of 2/);
    expect(await text('.quiz-question .study-front')).toBe('ATP is the energy _____ of the cell.');
    // The answer field has the focus: type and Enter.
    await answerFocused();
    await page.keyboard.type('money');
    await page.keyboard.press('Enter');
    await waitText(
      '.quiz-question',
      /Hint: You missed a word of the passage: "c…" \(8 letters\)\./,
    );
    expect(await text('.quiz-question')).toContain('Again: missing currency');
    expect(await page.$('.quiz-question .study-source')).toBeNull();
    await shot('quiz-hint-1280.png');
    await answerFocused();
    await page.keyboard.type('cash');
    await page.keyboard.press('Enter');
    await waitText('.quiz-question', /Source: notes\/cells\.md:3/);
    expect(await text('.quiz-question .study-source')).toContain(
      'ATP is the energy currency of the cell.',
    );
    expect(await text('.quiz-question')).toContain('(help: passage)');
    await page.keyboard.press('o');
    await page.keyboard.press('3');
    await waitText('.quiz-view [role="status"]', /Recorded your grade Good beside Again\./);
    await page.keyboard.press('c');
    await waitText('.quiz-view [role="status"]', /Saved as a card in cards\/cells\.md\./);
    await shot('quiz-passage-1280.png');
    await page.keyboard.press('n');
    await waitText('.quiz-question', /Question 2 of 2/);
    await answerFocused();
    await page.keyboard.type('Mitochondria');
    await page.keyboard.press('Enter');
    await waitText('.quiz-question', /Good \(help: none\)/);
    await page.keyboard.press('n');
    await waitText(
      '.quiz-summary',
      /Answered 2 of 2: 1 without help, 0 after a hint, 1 with the passage/,
    );
    const log = studyLog(sandbox);
    const answers = log.filter((entry) => entry.kind === 'answer');
    expect(answers.map((entry) => [entry.answers, entry.help])).toEqual([
      [['money', 'cash'], 'passage'],
      [['Mitochondria'], 'none'],
    ]);
    expect(log.find((entry) => entry.kind === 'override')).toMatchObject({
      of: answers[0]?.id,
      grade: 3,
    });
    expect(readFileSync(join(sandbox.space, 'cards/cells.md'), 'utf8')).toContain(
      'ATP is the energy ==currency== of the cell.',
    );
  }, 120_000);

  it('fits a phone at 390 px', async () => {
    await page.setViewport({ width: 390, height: 844 });
    await page.click('.view-switch .tab[data-view="review"]');
    await page.click('.quiz-start button[type="submit"]');
    await waitText('.quiz-question', /Question 1 of 2/);
    await answerFocused();
    await page.keyboard.type('energy');
    await page.keyboard.press('Enter');
    await waitText('.quiz-question', /Your answer: energy\s+Again: missing currency\s+Hint:/);
    await page.$eval('.quiz-view', (node) => node.scrollIntoView());
    await shot('quiz-390.png');
    const overflow = await page.$eval(
      '.quiz-view',
      (node) => node.scrollWidth - (node as HTMLElement).clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  }, 120_000);
});
