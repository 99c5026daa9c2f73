/// <reference lib="dom" />
import { REFUSAL, repaJson, SLOW_MODEL, type SlowModel, startSlowModel } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { STEP_MS, useWebRig } from './web-harness.js';

// Runs held on a model, in the built web app in a real headless Chromium: a real daemon on the held
// test model (an OpenAI-compatible endpoint that holds "wait" requests open), cancelled, queued
// behind, steered, refused and retried, and interrupted by the daemon's death. One browser for the
// whole file; the steps build on each other in order.

let slow: SlowModel;
const web = useWebRig({
  model: SLOW_MODEL,
  prepare: async (sandbox) => {
    slow = await startSlowModel();
    slow.configure(sandbox.agentDir);
  },
  cleanup: () => slow?.close(),
});
const { sandbox } = web;

/**
 * Sends `text` from the page and waits until its run is active, its model call held by the slow
 * model; the run's id.
 */
async function sendHeld(text: string): Promise<string | null> {
  const held = slow.nextHeld();
  await web.page.type('#message', text);
  await web.page.click('.composer button[type="submit"]');
  await held;
  await web.page.waitForSelector('.live .turn:last-child[data-status="running"]', {
    timeout: STEP_MS,
  });
  return web.page.$eval('.live .turn:last-child', (node) => node.getAttribute('data-run'));
}

describe('repa web in Chromium, runs held on the model', () => {
  it('cancels a held run with its Cancel button (the daemon on the held test model)', async () => {
    const held = slow.nextHeld();
    const aborted = slow.aborted;
    await web.page.type('#message', 'Please wait for me.');
    await web.page.click('.composer button[type="submit"]');
    await held; // The run is active: Pi waits on the model.
    await web.page.waitForSelector('.live .turn:last-child button.cancel', { timeout: STEP_MS });
    // By keyboard, as a user without a mouse would.
    await web.page.focus('.live .turn:last-child button.cancel');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector('.live .turn:last-child[data-status="cancelled"]', {
      timeout: STEP_MS,
    });
    expect(slow.aborted).toBe(aborted + 1);
    expect(await web.page.$('.live .turn:last-child button.retry')).not.toBeNull();
  });

  it('queues and steers while a reply streams: queued with its place, the steer reaches the held model, both finish in order', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => slow.release()); // A held run left behind would stall the steps after.
    const first = slow.requests.length;
    const target = await sendHeld('Please wait while I think.');
    const queue = async (text: string) => {
      await web.page.type('#message', text);
      await web.page.focus('.composer button.queue'); // By keyboard.
      await web.page.keyboard.press('Enter');
      await web.page.waitForFunction(
        (wanted) =>
          document.querySelector('.live .turn:last-child[data-queued="true"] .message.user')
            ?.textContent === `You${wanted}`,
        { timeout: STEP_MS },
        text,
      );
    };
    await queue('Then summarise the tides.');
    await queue('Also list the planets.');
    const queued = await web.page.$$eval('.live .turn[data-queued="true"]', (turns) =>
      turns.map((turn) => turn.querySelector('.run-status')?.textContent?.replace(/\s+/g, ' ')),
    );
    expect(queued).toEqual([
      'queued — position 1 in the queue',
      'queued — position 2 in the queue',
    ]);
    // The run list shows the queue; cancelling the second there takes it off the page.
    await web.page.click('#tab-runs');
    await web.page.waitForFunction(() => document.querySelectorAll('.queue-list li').length === 2, {
      timeout: STEP_MS,
    });
    expect(
      await web.page.$$eval('.queue-list li', (items) =>
        items.map((item) => [
          item.querySelector('.queue-position')?.textContent,
          item.querySelector('.queue-text')?.textContent,
        ]),
      ),
    ).toEqual([
      ['1.', 'Then summarise the tides.'],
      ['2.', 'Also list the planets.'],
    ]);
    await web.page.focus('.queue-list li:last-child button.cancel');
    await web.page.keyboard.press('Enter');
    await web.page.waitForFunction(
      () =>
        document.querySelectorAll('.queue-list li').length === 1 &&
        document.querySelectorAll('.live .turn[data-queued="true"]').length === 1,
      { timeout: STEP_MS },
    );
    // Steer: waiting in the held run's turn until the model has it.
    await web.page.type('#message', 'Focus on the moon.');
    await web.page.focus('.composer button.steer');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector(`.turn[data-run="${target}"] [data-steer]`, {
      timeout: STEP_MS,
    });
    slow.release();
    await web.page.waitForSelector(
      `.turn[data-run="${target}"] .steer[data-request-run]:not([data-steer])`,
      { timeout: STEP_MS },
    );
    expect(
      await web.page.$eval(`.turn[data-run="${target}"] .steer[data-request-run]`, (node) => [
        node.querySelector('.who')?.textContent,
        node.querySelector('p')?.textContent,
      ]),
    ).toEqual(['You steered', 'Focus on the moon.']);
    expect(await web.page.$(`.turn[data-run="${target}"] [data-steer]`)).toBeNull();
    await web.page.waitForSelector('.live .turn:last-child[data-status="succeeded"]', {
      timeout: STEP_MS,
    });
    expect(
      await web.page.$$eval('.live .turn', (turns) =>
        turns.slice(-2).map((turn) => turn.getAttribute('data-status')),
      ),
    ).toEqual(['succeeded', 'succeeded']);
    expect(await web.page.$('.live .turn[data-queued]')).toBeNull();
    // The held run's next model request carried the steer; the queued run's came after it.
    const requests = slow.requests.slice(first).map((messages) => JSON.stringify(messages));
    const steered = requests.findIndex((text) => text.includes('Focus on the moon.'));
    const queuedAt = requests.findIndex((text) => text.includes('Then summarise the tides.'));
    expect(steered).toBeGreaterThan(0);
    expect(requests[steered]).toContain('Please wait while I think.');
    expect(requests[steered]).not.toContain('Then summarise the tides.');
    expect(queuedAt).toBeGreaterThan(steered);
    expect(requests.some((text) => text.includes('Also list the planets.'))).toBe(false);
    expect(await web.page.$('.composer button[type="submit"]')).not.toBeNull();
    expect(
      await web.page.$eval('.composer button[type="submit"]', (node) => node.textContent),
    ).toBe('Send');
  });

  it('says when a steer arrived after its run ended, and queues it instead on request', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => slow.release()); // A held run left behind would stall the steps after.
    const target = await sendHeld('Please wait for a steer that never lands.');
    await web.page.type('#message', 'Mention the sun.');
    await web.page.click('.composer button.steer');
    await web.page.waitForSelector(`.turn[data-run="${target}"] [data-steer]`, {
      timeout: STEP_MS,
    });
    await web.page.click(`.turn[data-run="${target}"] button.cancel`);
    const offer = `.turn[data-run="${target}"] [data-steer] button.queue-instead`;
    await web.page.waitForSelector(offer, { timeout: STEP_MS });
    expect(
      await web.page.$eval(`.turn[data-run="${target}"] [data-steer]`, (node) => node.textContent),
    ).toContain('The reply ended before your message reached it.');
    await web.page.focus(offer);
    await web.page.keyboard.press('Enter');
    await web.page.waitForFunction(
      () =>
        document.querySelector('.live .turn:last-child .message.user p')?.textContent ===
          'Mention the sun.' &&
        document.querySelector('.live .turn:last-child')?.getAttribute('data-status') ===
          'succeeded',
      { timeout: STEP_MS },
    );
    expect(await web.page.$(`.turn[data-run="${target}"] [data-steer]`)).toBeNull();
  });

  it('sends with Enter (Shift+Enter adds a line); shows the failed run reloaded from history with its error, and retries it', async () => {
    await web.page.type('#message', 'Please refuse');
    await web.page.keyboard.down('Shift');
    await web.page.keyboard.press('Enter');
    await web.page.keyboard.up('Shift');
    await web.page.type('#message', 'this.');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector('.live .turn:last-child[data-status="failed"]', {
      timeout: STEP_MS,
    });
    await web.page.reload();
    const failed = '.history .unfinished[data-status="failed"]';
    await web.page.waitForSelector(`${failed} button.retry`, { timeout: STEP_MS });
    expect(await web.page.$eval(`${failed} .run-status`, (node) => node.textContent)).toContain(
      REFUSAL,
    );
    await web.page.click(`${failed} button.retry`);
    await web.page.waitForSelector('.live .turn:last-child[data-status="failed"]', {
      timeout: STEP_MS,
    });
    expect(
      await web.page.$eval('.live .turn:last-child .message.user p', (n) => n.textContent),
    ).toBe('Please refuse\nthis.');
  });

  it('shows a citation of a document that does not exist as unverified, with its reason', async () => {
    await web.page.type('#message', 'Please cite the notes.');
    await web.page.keyboard.press('Enter');
    await web.page.waitForSelector(
      '.live .turn:last-child[data-status="succeeded"] .citation-chip',
      {
        timeout: STEP_MS,
      },
    );
    expect(
      await web.page.$eval('.live .turn:last-child .citation-summary', (node) => node.textContent),
    ).toBe('0 of 1 citation verified');
    const chip = await web.page.$eval('.live .turn:last-child .citation-chip', (node) => ({
      status: node.getAttribute('data-status'),
      unverified: node.classList.contains('unverified'),
      summary: node.querySelector('summary')?.textContent ?? '',
    }));
    expect(chip).toMatchObject({ status: 'unknown_document', unverified: true });
    expect(chip.summary).not.toContain('✓');
  });

  it('reconnects by itself when the daemon is killed and restarted, and shows the active run interrupted', async () => {
    await sendHeld('Please wait again.');
    const status = await repaJson<{ pid: number }>(sandbox, ['daemon', 'status']);
    process.kill(status.json.pid, 'SIGKILL');
    await web.page.waitForSelector('.connection-reconnecting', { timeout: STEP_MS });
    // After a crash the page says what brings it back: a start (this address is served again).
    expect(await web.page.$eval('.connection-reconnecting', (node) => node.textContent)).toContain(
      'If it crashed, start it again (repa daemon start): this page reconnects by itself.',
    );
    const start = await repaJson(sandbox, ['daemon', 'start', '--model', SLOW_MODEL]);
    expect(start.code, start.stderr).toBe(0);
    await web.page.waitForSelector('.connection-open', { timeout: STEP_MS });
    await web.page.waitForSelector('.live .turn:last-child[data-status="interrupted"]', {
      timeout: STEP_MS,
    });
    expect(await web.page.$('.live .turn:last-child button.retry')).not.toBeNull();
  });
});
