/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '@repa/protocol';
import {
  type CliProcess,
  repaJson,
  SLOW_MODEL,
  type SlowModel,
  spawnRepa,
  startSlowModel,
} from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// The page live across clients, end to end: runs the CLI starts in the page's session appear in
// the open page as they stream (queued ones with their place); follow-up and resume from the page;
// an image pasted into the message box; the page after `repa daemon restart`. One daemon on the
// offline responder (CLI runs pick the held test model with --model), one Chromium; the steps
// build on each other in order.

/** A 1×1 PNG, base64. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';
let slow: SlowModel;
const web = useWebRig({
  prepare: async (sandbox) => {
    slow = await startSlowModel();
    slow.configure(sandbox.agentDir);
  },
  cleanup: () => slow?.close(),
});
const { sandbox } = web;
/** The session the page opened with its first message. */
let sessionId: string;

/** `repa run` in the page's session, in the background (it follows its run to the end). */
const runFromCli = (args: string[]): CliProcess =>
  spawnRepa(sandbox, ['run', '--session', sessionId, ...args]);

/** Waits until a live turn whose request is `text` has the `data-status` `status`. */
async function turnOf(text: string, status: string): Promise<void> {
  await web.page.waitForFunction(
    (wanted, state) =>
      [...document.querySelectorAll('.live .turn')].some(
        (turn) =>
          turn.querySelector('.message.user p')?.textContent === wanted &&
          turn.getAttribute('data-status') === state,
      ),
    { timeout: STEP_MS },
    text,
    status,
  );
}

beforeAll(async () => {
  await sendMessage(web.page, 'What does notes/a.md say about the tide?');
  await lastTurnReaches(web.page, 'succeeded');
  sessionId = await web.page.evaluate(
    () => new URLSearchParams(location.hash.slice(1)).get('session') ?? '',
  );
  expect(sessionId).not.toBe('');
});

describe('repa web, live across clients', () => {
  it('shows a run the CLI started live (in the open page and a tab opened meanwhile) with a queued one’s place, and follows up into it', async () => {
    const held = slow.nextHeld();
    const first = runFromCli(['--model', SLOW_MODEL, 'Please wait for the moon.']);
    await held;
    await turnOf('Please wait for the moon.', 'running');
    const queued = runFromCli(['--queue', 'Then list the notes.']);
    const place = await web.page.waitForSelector(
      '.live .turn[data-queued="true"] .queue-position',
      {
        timeout: STEP_MS,
      },
    );
    expect(await place?.evaluate((node) => node.textContent)).toBe('position 1');
    // A tab opened now finds both: the running run and the queue (`session.subscribe`'s answer).
    const tab = await web.rig.browser.newPage();
    try {
      await tab.goto(web.page.url());
      await tab.waitForSelector('.live .turn[data-status="running"]', { timeout: STEP_MS });
      expect(
        await tab.$eval('.live .turn[data-queued="true"] .queue-position', (n) => n.textContent),
      ).toBe('position 1');
    } finally {
      await tab.close();
      await web.page.bringToFront(); // A page in the background gets no animation frames.
    }

    // Follow up from the page into the CLI's run: given to the model after its current work.
    await web.page.type('#message', 'Also say when spring tides come.');
    await web.page.click('.composer button.follow-up');
    await web.page.waitForSelector('[data-steer]', { timeout: STEP_MS });
    expect(await web.page.$eval('[data-steer] .who', (node) => node.textContent)).toBe(
      'Follow-up waiting for the reply to finish its work',
    );
    slow.holding = false;
    slow.release();
    await turnOf('Please wait for the moon.', 'succeeded');
    const followedUp = await web.page.evaluate(
      () =>
        [...document.querySelectorAll('.live .turn')]
          .find((turn) => turn.querySelector('.message.user p')?.textContent?.includes('moon'))
          ?.querySelector('.steer .who')?.textContent,
    );
    expect(followedUp).toBe('You followed up');
    await turnOf('Then list the notes.', 'succeeded');
    expect((await first.exited).code).toBe(0);
    expect((await queued.exited).code).toBe(0);
    // The model received the follow-up as its own message.
    expect(JSON.stringify(slow.requests.at(-1))).toContain('Also say when spring tides come.');
  });

  it('shows a tab opened while a run works what it did so far, then the rest as it streams', async () => {
    slow.holding = true;
    const held = slow.nextHeld();
    const run = runFromCli(['--model', SLOW_MODEL, 'Please look first, then answer.']);
    await held; // It read notes/a.md; its next model call is held.
    const tab = await web.rig.browser.newPage();
    try {
      await tab.goto(web.page.url());
      const tool = await tab.waitForSelector('.live .turn[data-status="running"] .tool', {
        timeout: STEP_MS,
      });
      expect(await tool?.evaluate((node) => node.textContent?.replace(/\s+/g, ' '))).toMatch(
        /read notes\/a\.md done/,
      );
      slow.holding = false;
      slow.release();
      await tab.waitForSelector('.live .turn[data-status="succeeded"]', { timeout: STEP_MS });
      expect(
        await tab.$eval('.live .turn[data-status="succeeded"]', (turn) => [
          turn.querySelectorAll('.tool').length,
          turn.querySelector('.markdown')?.textContent?.trim(),
        ]),
      ).toEqual([1, 'Hello from the test model.']);
    } finally {
      await tab.close();
      await web.page.bringToFront(); // A page in the background gets no animation frames.
    }
    expect((await run.exited).code).toBe(0);
  });

  it('shows a failed run reloaded with its model and Resume, and resumes it in the page', async () => {
    const failed = runFromCli(['--model', SLOW_MODEL, 'Please refuse this.']);
    await turnOf('Please refuse this.', 'failed');
    expect((await failed.exited).code).not.toBe(0);
    await web.page.reload();
    const turn = '.history .turn.unfinished[data-status="failed"]';
    await web.page.waitForSelector(`${turn} button.resume`, { timeout: STEP_MS });
    expect(
      await web.page.$eval(`${turn} .run-model`, (node) => node.getAttribute('data-model')),
    ).toBe(SLOW_MODEL);
    // History renders like the live view: the first answer's tool line names its file.
    expect(
      await web.page.$eval('.history .turn .tool', (node) =>
        node.textContent?.replace(/\s+/g, ' '),
      ),
    ).toMatch(/read notes\/a\.md done/);
    await web.page.click(`${turn} button.resume`);
    await web.page.waitForSelector('.live .turn:last-child[data-status="succeeded"]', {
      timeout: STEP_MS,
    });
    expect(
      await web.page.$eval('.live .turn:last-child .message.user .who', (n) => n.textContent),
    ).toBe('You resumed');
    const runId = await web.page.$eval('.live .turn:last-child', (node) =>
      node.getAttribute('data-run'),
    );
    const shown = await repaJson<{ run: RunInfo }>(sandbox, ['runs', 'show', String(runId)]);
    expect(shown.json.run.resumeOf).toBeTruthy();
  });

  it('sends an image pasted into the message box and one picked with the request', async () => {
    // A PNG pasted as the clipboard of a screenshot tool would hold it.
    await web.page.evaluate((base64) => {
      const png = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([png], 'tide.png', { type: 'image/png' }));
      const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true });
      document.querySelector('#message')?.dispatchEvent(paste);
    }, PNG);
    await web.page.waitForSelector('.image-chip img', { timeout: STEP_MS });
    // And one picked with "Add images".
    const picked = join(sandbox.root, 'moon.png');
    writeFileSync(picked, Buffer.from(PNG, 'base64'));
    const input = await web.page.$('.pick-images input[type="file"]');
    await input?.uploadFile(picked);
    await web.page.waitForFunction(() => document.querySelectorAll('.image-chip').length === 2, {
      timeout: STEP_MS,
    });
    await sendMessage(web.page, 'What do these pictures show?');
    await lastTurnReaches(web.page, 'succeeded');
    expect(await web.page.$('.image-chip')).toBeNull();
    expect(await web.page.$eval('.live .turn:last-child .images-sent', (n) => n.textContent)).toBe(
      '2 images sent with it',
    );
    const runId = await web.page.$eval('.live .turn:last-child', (node) =>
      node.getAttribute('data-run'),
    );
    const shown = await repaJson<{ run: RunInfo }>(sandbox, ['runs', 'show', String(runId)]);
    expect(shown.json.run.input.images).toHaveLength(2);
  });

  it('reconnects by itself after `repa daemon restart` (same port, same secret) and runs again', async () => {
    await web.page.evaluate(() => {
      const seen = { reconnecting: false };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('.connection-reconnecting')) seen.reconnecting = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const restart = await repaJson(sandbox, ['daemon', 'restart', '--model', 'repa-offline']);
    expect(restart.code, restart.stderr).toBe(0);
    await web.page.waitForSelector('.connection-open', { timeout: STEP_MS });
    expect(
      await web.page.evaluate(
        () => (window as unknown as { __seen: { reconnecting: boolean } }).__seen.reconnecting,
      ),
    ).toBe(true);
    await sendMessage(web.page, 'Read notes/plan.md');
    await lastTurnReaches(web.page, 'succeeded');
  });
});
