/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { citedCard } from '@repa/fixtures';
import type { RepaClient, StudyCalendarDay, StudyProgress } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { appendStudyLog, writeFiles } from '@repa/test-kit';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, STEP_MS, useWebRig } from './web-harness.js';

// The Progress view on a real daemon after a week of ratings (each at a fixed time) and graded
// answers: per source a recall bar and its due count, and the next 14 days' reviews, each drawn
// from `study.status` as the daemon answers it, at 1280 px and at 390 px.
const DAY = 86_400_000;
const CH3 = 'Chapter 3\nATP stores energy.\nMitochondria make ATP.\n';
const T0 = Math.floor(Date.now() / DAY) * DAY - 7 * DAY + 9 * 3_600_000;
const at = (day: number, minutes = 0) => new Date(T0 + day * DAY + minutes * 60_000).toISOString();

/** A card citing line `from` of `src/ch3.md`. */
const cited = (id: string, front: string, from: number) =>
  citedCard({ id, front, document: 'src/ch3.md', text: CH3, from });

// The page opens once the week is in the log.
const web = useWebRig({
  open: false,
  prepare: (sandbox) =>
    writeFiles(sandbox.space, {
      'src/ch3.md': CH3,
      'cards/ch3.md':
        cited('cch3energy1', 'What stores energy?::ATP', 2) +
        cited('cch3makers1', 'What makes ATP?::Mitochondria', 3),
      'cards/hand.md': 'Hand card::never studied\n',
    }),
});
const { sandbox, shots: SHOTS } = web;
let page: Page;
let client: RepaClient;

beforeAll(async () => {
  page = web.page;
  client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  await client.connect();
  const rate = (card: string, rating: number, now: string) =>
    client.request('study.rate', { space: sandbox.space, card, rating, now });
  for (let day = 0; day < 6; day += 1) await rate('cch3energy1', day === 2 ? 1 : 3, at(day));
  await rate('cch3makers1', 3, at(3));
  await rate('cch3makers1', 3, at(3, 10));
  appendStudyLog(sandbox, {
    kind: 'answer',
    id: 'a1',
    origin: 'quiz',
    set: 'q1',
    question: 'What stores energy?',
    cite: 'src/ch3.md:2-2',
    source: 'src/ch3.md',
    version: createHash('sha256').update(CH3).digest('hex'),
    answers: ['sugar', 'ATP'],
    grade: 3,
    missing: '',
    help: 'hint',
    grader: 'passage-words',
    at: at(4, 30),
  });
  await openPage(page, web.rig.url);
});

afterAll(() => client?.close());

/** What `study.status` answers now in the page's time zone. */
async function status(): Promise<{ sources: StudyProgress[]; calendar: StudyCalendarDay[] }> {
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  return client.request('study.status', { space: sandbox.space, timeZone });
}

/** The view as drawn: each source's bar width, recall and due; each day's date and count. */
function drawn() {
  return page.evaluate(() => ({
    sources: [...document.querySelectorAll<HTMLElement>('.progress-source')].map((row) => ({
      source: row.dataset.source,
      width: (row.querySelector('.progress-bar span') as HTMLElement).style.width,
      recall: (row.querySelector('.progress-recall') as HTMLElement).textContent,
      due: (row.querySelector('.progress-due') as HTMLElement).textContent,
      label: row.querySelector('.progress-bar')?.getAttribute('aria-label'),
    })),
    days: [...document.querySelectorAll<HTMLElement>('.progress-calendar li')].map((day) => ({
      date: day.dataset.date,
      due: Number((day.querySelector('.progress-count') as HTMLElement).textContent),
      label: day.getAttribute('aria-label'),
    })),
    sideways: document.documentElement.scrollWidth > window.innerWidth,
  }));
}

async function expectDrawnFromStatus(): Promise<void> {
  await page.waitForSelector('.progress-source', { visible: true, timeout: STEP_MS });
  const [shown, expected] = [await drawn(), await status()];
  expect(shown.sources).toEqual(
    expected.sources.map((one) => ({
      source: one.source,
      width: `${one.recall === null ? 0 : Math.round(one.recall * 100)}%`,
      recall: one.recall === null ? '–' : `${Math.round(one.recall * 100)}%`,
      due: `${one.due} due`,
      label: `${one.source}: ${one.recall === null ? 'no card reviewed yet' : `recall now ${Math.round(one.recall * 100)}%`}`,
    })),
  );
  expect(shown.days.map(({ date, due }) => ({ date, due }))).toEqual(expected.calendar);
  expect(shown.days[0]?.label).toMatch(/^Today, /u);
  expect(shown.sideways).toBe(false);
}

describe('the Progress view', () => {
  it('draws a recall bar and due count per source and 14 days of reviews from study.status, reached by the keyboard, at 1280 px', async () => {
    // The tabs by the keyboard: the selected tab (Documents), then the arrow key past Study.
    await page.focus('#tab-study');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-progress');
    await expectDrawnFromStatus();
    const expected = await status();
    const ch3 = expected.sources.find((one) => one.source === 'src/ch3.md') as StudyProgress;
    expect(ch3.recall).not.toBeNull();
    expect(expected.calendar.some((day) => day.due > 0)).toBe(true);
    expect(
      await page.$eval('.progress-source[data-source="src/ch3.md"] .progress-counts', (node) =>
        (node as HTMLElement).textContent.replace(/\s+/g, ' '),
      ),
    ).toContain('quiz answers after the hint 1 good');
    await page.screenshot({ path: join(SHOTS, 'web-progress-1280.png') as `${string}.png` });
  });

  it('fits a phone at 390 px through the view switch, and reads the numbers again when shown again', async () => {
    await page.setViewport({ width: 390, height: 844 });
    await page.click('.view-switch .tab[data-view="conversation"]');
    await client.request('study.rate', { space: sandbox.space, card: 'cch3makers1', rating: 1 });
    await page.click('.view-switch .tab[data-view="progress"]');
    await page.waitForFunction(
      () =>
        document
          .querySelector<HTMLElement>('.progress-source[data-source="src/ch3.md"] .progress-counts')
          ?.textContent.includes('1 learning'),
      { timeout: STEP_MS },
    );
    await expectDrawnFromStatus();
    await page.screenshot({ path: join(SHOTS, 'web-progress-390.png') as `${string}.png` });
  });
});
