/// <reference lib="dom" />
// Spec R114: the composer's Check my answer on a real daemon (the offline responder): in tutor
// mode an answer to the tutor's reply is graded against the passage it cites, a hint and a second
// try (by its keyboard shortcut), then the passage; the answer is in the study log.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { studyLog, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import {
  lastTurnReaches,
  STEP_MS,
  sendMessage,
  shownText,
  useWebRig,
  waitShownText,
} from './web-harness.js';

const MOON = '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n';
const web = useWebRig({
  prepare: (sandbox) => writeFiles(sandbox.space, { 'notes/moon.md': MOON }),
});
const QUESTION = 'What makes the tides? See notes/moon.md';

/** Types `text` in the empty message box. */
async function typeAnswer(text: string): Promise<void> {
  await web.page.focus('#message');
  await web.page.keyboard.type(text);
}

/** The study log's `answer` entries. */
const answers = () => studyLog(web.sandbox).filter((entry) => entry.kind === 'answer');

describe('Check my answer in tutor mode', () => {
  it("grades the composer's text against the tutor reply's passage: a hint, the second try by Ctrl+Enter, the passage, recorded", async () => {
    const { page } = web;
    await page.setViewport({ width: 1280, height: 900 });
    expect(await page.$('.tutor-check-button')).toBeNull();
    await page.click('#tutor-mode');
    await page.waitForSelector('.tutor-check-button', { timeout: STEP_MS });
    await sendMessage(page, QUESTION);
    await lastTurnReaches(page, 'succeeded');

    await typeAnswer('the moon');
    await page.click('.tutor-check-button');
    await waitShownText(page, '.tutor-check', /Second try/u);
    expect(await shownText(page, '.tutor-check')).toContain(
      'Your answer: the moon Again: missing pulls … oceans … toward Hint: You missed 3 words of the passage',
    );
    expect(await page.$eval('#message', (node) => (node as HTMLTextAreaElement).value)).toBe('');

    await typeAnswer('the Moon pulls the oceans toward it');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await waitShownText(page, '.tutor-check', /Recorded in the study log/u);
    const checked = await shownText(page, '.tutor-check');
    expect(checked).toContain('Good (help: hint)');
    expect(checked).toContain(
      'Source: notes/moon.md:3 The Moon pulls the oceans toward it, which makes the tides.',
    );
    // Ctrl+Enter checked the answer: it sent nothing to the tutor.
    expect(await page.$$eval('.live .turn', (turns) => turns.length)).toBe(1);
    await page.screenshot({ path: join(web.shots, 'web-tutor-check-1280.png') as `${string}.png` });
    await page.setViewport({ width: 390, height: 844 });
    await page.screenshot({ path: join(web.shots, 'web-tutor-check-390.png') as `${string}.png` });

    expect(answers()).toMatchObject([
      {
        origin: 'tutor',
        question: QUESTION,
        cite: 'notes/moon.md:3',
        version: createHash('sha256').update(MOON).digest('hex'),
        answers: ['the moon', 'the Moon pulls the oceans toward it'],
        grade: 3,
        help: 'hint',
      },
    ]);
  });
});
