/// <reference lib="dom" />
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { makePdf } from '@repa/fixtures';
import {
  createSandbox,
  REFUSAL,
  repaJson,
  SLOW_MODEL,
  type SlowModel,
  startSlowModel,
  writeFiles,
} from '@repa/test-kit';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, lastTurnReaches as lastTurnOf, STEP_MS, sendMessage } from './web-harness.js';

// `repa web` end to end: the built web app in a real headless Chromium, served by a real daemon on
// the offline responder (the session's model is switched to the held test model to cancel a run).
// One browser for the whole file; the steps build on each other in order.

const sandbox = createSandbox();
/** Where the 1280 and 390 px pictures go (`REPA_SHOT_DIR` keeps them; else the sandbox). */
const SHOTS = process.env.REPA_SHOT_DIR ?? sandbox.root;
let slow: SlowModel;
let browser: Browser;
let page: Page;
let url: string;
/** The global options of the second daemon (on the held model), once started. */
let slowDaemon: string[] | undefined;
/** The page of the second daemon. */
let other: Page;

/**
 * Sends `text` from the second page and waits until its run is active, its model call held by the
 * slow model; the run's id.
 */
async function sendHeld(text: string): Promise<string | null> {
  const held = slow.nextHeld();
  await other.type('#message', text);
  await other.click('.composer button[type="submit"]');
  await held;
  await other.waitForSelector('.live .turn:last-child[data-status="running"]', {
    timeout: STEP_MS,
  });
  return other.$eval('.live .turn:last-child', (node) => node.getAttribute('data-run'));
}

// What repa-offline answers from a file's content: a script, an event handler and a javascript: link.
const EVIL = [
  '# Payload',
  '',
  'Danger <script>window.__pwned = "script"</script> <img src="x" onerror="window.__pwned = \'img\'"> here.',
  'Click [this link](javascript:window.__pwned=1) or [the docs](https://example.com/docs).',
  '',
].join('\n');

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install chromium) or set REPA_CHROMIUM to a Chromium binary.`,
    );
  }
  writeFiles(sandbox.space, { 'notes/evil.md': EVIL });
  slow = await startSlowModel();
  slow.configure(sandbox.agentDir);
  const start = await repaJson(sandbox, ['daemon', 'start', '--model', 'repa-offline']);
  expect(start.code, start.stderr).toBe(0);
  const web = await repaJson<{ url: string; opened: boolean }>(sandbox, [
    'web',
    '--no-open',
    '--space',
    sandbox.space,
  ]);
  expect(web.code, web.stderr).toBe(0);
  expect(web.json.opened).toBe(false);
  url = web.json.url;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in CI has no user namespace for Chromium's sandbox; the page is our own app.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.evaluateOnNewDocument(() => {
    (window as unknown as { __pwned?: unknown }).__pwned = undefined;
  });
});

afterAll(async () => {
  await browser?.close();
  await repaJson(sandbox, ['daemon', 'stop']);
  if (slowDaemon) await repaJson(sandbox, [...slowDaemon, 'daemon', 'stop'], { global: false });
  await slow?.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** The `data-status` of the last turn once it is `status`. */
const lastTurnReaches = (status: string) => lastTurnOf(page, status);
const send = (text: string) => sendMessage(page, text);

async function settingSource(key: string): Promise<string> {
  // A view is drawn when its tab is first chosen, its settings once the daemon answered.
  await page.waitForSelector(`li.setting[data-key="${key}"] .source`, { timeout: STEP_MS });
  return page.$eval(
    `li.setting[data-key="${key}"] .source`,
    (node) => node.getAttribute('data-source') ?? '',
  );
}

describe('repa web in Chromium', () => {
  it('opens the space given with --space after the secret became a cookie (and left the address)', async () => {
    await page.goto(url);
    expect(new URL(page.url()).search).toBe('');
    const cookies = await browser.cookies();
    expect(cookies.find((cookie) => cookie.name.startsWith('repa_web_'))).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    await page.waitForSelector('.connection-open', { timeout: STEP_MS });
    await page.waitForSelector('#message', { timeout: STEP_MS });
    expect(await page.$eval('#space-path', (input) => (input as HTMLInputElement).value)).toBe(
      sandbox.space,
    );
  });

  it('sends a request and shows the answer while it streams, with the tool call naming its file', async () => {
    // Every distinct text the answer showed before the run ended.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => {
        const turn = document.querySelector('.live .turn:last-child');
        const text = turn?.querySelector('.markdown')?.textContent ?? '';
        if (turn?.getAttribute('data-status') !== 'succeeded' && text && seen.at(-1) !== text) {
          seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send('What does notes/a.md say about the tide?');
    await lastTurnReaches('succeeded');
    const turn = await page.$eval('.live .turn:last-child', (node) => node.textContent);
    expect(turn).toContain('From notes/a.md: The tide turns every six hours.');
    expect(turn).toMatch(/read\s+notes\/a\.md\s+done/);
    // Its citation is checked: a chip per citation and a summary.
    const summary = await page.$eval(
      '.live .turn:last-child .citation-summary',
      (n) => n.textContent,
    );
    expect(summary).toBe('1 of 1 citation verified');
    const chip = await page.$eval('.live .turn:last-child .citation-chip', (node) => [
      node.getAttribute('data-status'),
      node.querySelector('summary')?.textContent,
    ]);
    expect(chip).toEqual(['verified', '[1] notes/a.md, line 3 ✓']);
    // Once the note changes, the answer shown from history (a second tab at the same address)
    // says its citation is of an older text.
    const note = join(sandbox.space, 'notes', 'a.md');
    const before = readFileSync(note);
    appendFileSync(note, 'Neap tides are weaker.\n');
    const again = await browser.newPage();
    try {
      await again.goto(page.url());
      const changed = await again.waitForSelector(
        '.history .citation-chip[data-status="verified"]',
        { timeout: STEP_MS },
      );
      expect(await changed?.$eval('summary', (node) => node.textContent)).toBe(
        '[1] notes/a.md, line 3 ✓ · changed since',
      );
    } finally {
      await again.close();
      writeFileSync(note, before);
      await page.bringToFront(); // A page in the background gets no animation frames.
    }
    // The reply names the model its run was accepted with, and why.
    const model = await page.$eval('.live .turn:last-child .run-model', (node) => node.textContent);
    expect(model?.replace(/\s+/g, ' ').trim()).toBe(
      "Model: repa-offline (local responder, no language model) — the daemon's --model, thinking off",
    );
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    const final = await page.$eval('.live .turn:last-child .markdown', (node) => node.textContent);
    // Partial answers were on screen before the whole one: it streamed.
    expect(seen.length).toBeGreaterThan(1);
    const whole = final?.trim() ?? '';
    expect(
      seen.slice(0, -1).every((text) => whole.startsWith(text.trim()) && text.trim() !== whole),
    ).toBe(true);
  });

  it('offers the spaces the daemon opened on its first screen; `repa web` inside a space opens it; the address names space and session', async () => {
    const inside = await repaJson<{ url: string }>(sandbox, ['web', '--no-open']);
    expect(new URL(inside.json.url).hash).toBe(`#space=${encodeURIComponent(sandbox.space)}`);
    const session = await page.evaluate(() =>
      new URLSearchParams(location.hash.slice(1)).get('session'),
    );
    expect(session).toBeTruthy();
    const fresh = await browser.newPage();
    try {
      await fresh.setViewport({ width: 1280, height: 900 });
      await fresh.goto(new URL('/', url).href); // The cookie is set: no secret, no space named.
      const known = `.welcome .known-spaces li[data-root="${sandbox.space}"] button.known-space`;
      await fresh.waitForSelector(known, { timeout: STEP_MS });
      await fresh.screenshot({ path: join(SHOTS, 'web-welcome.png') as `${string}.png` });
      await fresh.click(known);
      await fresh.waitForSelector('.history .message.assistant', { timeout: STEP_MS });
      const named = () => {
        const address = new URLSearchParams(new URL(fresh.url()).hash.slice(1));
        return [address.get('space'), address.get('session')];
      };
      expect(named()).toEqual([sandbox.space, session]);
      await fresh.reload();
      await fresh.waitForSelector('.history .message.assistant', { timeout: STEP_MS });
      expect(named()).toEqual([sandbox.space, session]);
      // The sessions' list may come after the history the page asked for beside it.
      await fresh.waitForSelector('button.session[aria-current="true"]', { timeout: STEP_MS });
    } finally {
      await fresh.close();
    }
    await page.bringToFront();
  });

  it('shows the save receipt of an edit, and the file changed on disk', async () => {
    await send('Please replace "six hours" with "twelve hours" in notes/a.md');
    await lastTurnReaches('succeeded');
    const receipt = await page.$eval('.live .turn:last-child .receipt', (node) => node.textContent);
    expect(receipt).toMatch(/Saved notes\/a\.md \(\d+ bytes\)/);
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('twelve hours');
  });

  it('shows the edit’s diff inline, and its Undo first shows what it restores, then restores the note', async () => {
    const turn = '.live .turn:last-child';
    expect(await page.$eval(`${turn} .save-diff summary`, (node) => node.textContent)).toBe(
      '+1 −1 changed lines',
    );
    await page.click(`${turn} .save-diff summary`);
    expect(await page.$eval(`${turn} .save-diff .diff-del`, (node) => node.textContent)).toBe(
      '-The tide turns every six hours.\n',
    );
    expect(await page.$eval(`${turn} .save-diff .diff-add`, (node) => node.textContent)).toBe(
      '+The tide turns every twelve hours.\n',
    );
    await page.click(`${turn} .receipts ~ .undo .undo-button`);
    await page.waitForSelector(`${turn} .rewind`, { timeout: STEP_MS });
    expect(
      await page.$eval(`${turn} .rewind .rewind-file.will`, (node) => node.textContent),
    ).toContain('Restore notes/a.md as it was before');
    // Shown first: nothing is written before the learner confirms.
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('twelve hours');
    await page.click(`${turn} .rewind .confirm-undo`);
    await page.waitForSelector(`${turn} .rewind.done`, { timeout: STEP_MS });
    expect(await page.$eval(`${turn} .rewind.done`, (node) => node.textContent)).toContain(
      'Restored notes/a.md as it was before',
    );
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('six hours');
    await page.screenshot({ path: join(sandbox.root, 'web-undo.png') as `${string}.png` });
  });

  it('edits the learning context with its revision check', async () => {
    await page.click('#context-heading ~ button');
    await page.waitForSelector('#context-draft');
    await page.type('#context-draft', '# Focus\n\nTides and the moon.');
    await page.click('#context-draft ~ .row button[type="submit"]');
    await page.waitForSelector('.context-revision', { timeout: STEP_MS });
    expect(await page.$eval('.context-body', (node) => node.textContent)).toContain(
      'Tides and the moon.',
    );
    const shown = await repaJson<{ learningContext: { body: string } }>(sandbox, [
      'context',
      'show',
      '--space',
      sandbox.space,
    ]);
    expect(shown.json.learningContext.body).toBe('# Focus\n\nTides and the moon.');
  });

  it('builds the learning context from a chosen document, with progress', async () => {
    await page.click('#context-heading ~ details summary');
    await page.type('#context-sources', 'notes/plan.md');
    await page.click('#context-sources ~ button[type="submit"]');
    await page.waitForFunction(
      () =>
        document
          .querySelector('#context-heading ~ .panel-message')
          ?.textContent?.startsWith('Built with repa-offline'),
      { timeout: STEP_MS },
    );
    expect(await page.$eval('.context-body', (node) => node.textContent)).toContain('Plan');
    expect(
      await page.$eval('.context-revision', (node) => node.parentElement?.textContent),
    ).toContain('from notes/plan.md');
  });

  it('grants an outside PDF from the materials panel and lists it there and in the documents tree', async () => {
    const paper = join(sandbox.home, 'paper.pdf');
    writeFileSync(paper, makePdf([{ lines: ['Tides are caused by the moon.'] }]));
    await page.click('#materials-heading ~ details summary');
    await page.type('#material-path', paper);
    await page.type('#material-id', 'paper');
    await page.click('#materials-heading ~ details button[type="submit"]');
    await page.waitForSelector('.material[data-id="paper"]', { timeout: STEP_MS });
    expect(await page.$eval('.material[data-id="paper"]', (node) => node.textContent)).toMatch(
      /repa:material\/paper\s+PDF · \d+ B/u,
    );
    // The documents tree lists it under the granted materials at once (no run in between).
    await page.waitForSelector('.documents .pick[data-path="repa:material/paper"]', {
      timeout: STEP_MS,
    });
  });

  it('lists the session’s runs with their prompt-section report', async () => {
    await page.click('#tab-runs');
    await page.waitForSelector('.runs > li', { visible: true, timeout: STEP_MS });
    const runs = await page.$$eval('.runs > li', (items) =>
      items.map((item) => item.textContent ?? ''),
    );
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.join('\n')).toContain('succeeded');
    expect(runs.join('\n')).toMatch(/Base prompt\s+(included, \d+ chars|absent) — /);
  });

  it('changes a setting at the session level and shows its source level change, then resets it', async () => {
    const row = 'li.setting[data-key="prompts.environment"]';
    const sourceBecomes = (source: string) =>
      page.waitForFunction(
        (selector, wanted) =>
          document.querySelector(`${selector} .source`)?.getAttribute('data-source') === wanted,
        { timeout: STEP_MS },
        row,
        source,
      );
    await page.click('#tab-settings');
    expect(await settingSource('prompts.environment')).toBe('default');
    await page.click('#settings-level-session');
    await page.click(`${row} input[role="switch"]`);
    await sourceBecomes('session');
    expect(await page.$eval(`${row} .setting-value`, (node) => node.textContent)).toBe('off');
    expect(await page.$eval(`${row} .setting-level`, (node) => node.textContent)).toContain(
      'Set for this session: off.',
    );
    await page.click(`${row} .setting-level button.reset`);
    await sourceBecomes('default');
  });

  it('cancels a held run with its Cancel button (a second daemon on the held test model)', async () => {
    const appDir = join(sandbox.root, 'app-slow');
    const space = join(sandbox.root, 'space-slow');
    mkdirSync(space, { recursive: true });
    const global = ['--app-dir', appDir, '--agent-dir', sandbox.agentDir];
    const start = await repaJson(sandbox, [...global, 'daemon', 'start', '--model', SLOW_MODEL], {
      global: false,
    });
    expect(start.code, start.stderr).toBe(0);
    slowDaemon = global;
    const web = await repaJson<{ url: string }>(
      sandbox,
      [...global, 'web', '--no-open', '--space', space],
      { global: false },
    );
    other = await browser.newPage();
    // Wide, as the first page: below 1000 px the panels sit under the pinned message box while the
    // conversation is at its end, where a click on them would land on the box.
    await other.setViewport({ width: 1280, height: 900 });
    await other.goto(web.json.url);
    await other.waitForSelector('#message', { timeout: STEP_MS });
    const held = slow.nextHeld();
    const aborted = slow.aborted;
    await other.type('#message', 'Please wait for me.');
    await other.click('.composer button[type="submit"]');
    await held; // The run is active: Pi waits on the model.
    await other.waitForSelector('.live .turn:last-child button.cancel', { timeout: STEP_MS });
    // By keyboard, as a user without a mouse would.
    await other.focus('.live .turn:last-child button.cancel');
    await other.keyboard.press('Enter');
    await other.waitForSelector('.live .turn:last-child[data-status="cancelled"]', {
      timeout: STEP_MS,
    });
    expect(slow.aborted).toBe(aborted + 1);
    expect(await other.$('.live .turn:last-child button.retry')).not.toBeNull();
  });

  it('queues and steers while a reply streams: queued with its place, the steer reaches the held model, both finish in order', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => slow.release()); // A held run left behind would stall the steps after.
    const first = slow.requests.length;
    const target = await sendHeld('Please wait while I think.');
    const queue = async (text: string) => {
      await other.type('#message', text);
      await other.focus('.composer button.queue'); // By keyboard.
      await other.keyboard.press('Enter');
      await other.waitForFunction(
        (wanted) =>
          document.querySelector('.live .turn:last-child[data-queued="true"] .message.user')
            ?.textContent === `You${wanted}`,
        { timeout: STEP_MS },
        text,
      );
    };
    await queue('Then summarise the tides.');
    await queue('Also list the planets.');
    const queued = await other.$$eval('.live .turn[data-queued="true"]', (turns) =>
      turns.map((turn) => turn.querySelector('.run-status')?.textContent?.replace(/\s+/g, ' ')),
    );
    expect(queued).toEqual([
      'queued — position 1 in the queue',
      'queued — position 2 in the queue',
    ]);
    // The run list shows the queue; cancelling the second there takes it off the page.
    await other.click('#tab-runs');
    await other.waitForFunction(() => document.querySelectorAll('.queue-list li').length === 2, {
      timeout: STEP_MS,
    });
    expect(
      await other.$$eval('.queue-list li', (items) =>
        items.map((item) => [
          item.querySelector('.queue-position')?.textContent,
          item.querySelector('.queue-text')?.textContent,
        ]),
      ),
    ).toEqual([
      ['1.', 'Then summarise the tides.'],
      ['2.', 'Also list the planets.'],
    ]);
    await other.focus('.queue-list li:last-child button.cancel');
    await other.keyboard.press('Enter');
    await other.waitForFunction(
      () =>
        document.querySelectorAll('.queue-list li').length === 1 &&
        document.querySelectorAll('.live .turn[data-queued="true"]').length === 1,
      { timeout: STEP_MS },
    );
    // Steer: waiting in the held run's turn until the model has it.
    await other.type('#message', 'Focus on the moon.');
    await other.focus('.composer button.steer');
    await other.keyboard.press('Enter');
    await other.waitForSelector(`.turn[data-run="${target}"] [data-steer]`, { timeout: STEP_MS });
    slow.release();
    await other.waitForSelector(
      `.turn[data-run="${target}"] .steer[data-request-run]:not([data-steer])`,
      { timeout: STEP_MS },
    );
    expect(
      await other.$eval(`.turn[data-run="${target}"] .steer[data-request-run]`, (node) => [
        node.querySelector('.who')?.textContent,
        node.querySelector('p')?.textContent,
      ]),
    ).toEqual(['You steered', 'Focus on the moon.']);
    expect(await other.$(`.turn[data-run="${target}"] [data-steer]`)).toBeNull();
    await other.waitForSelector('.live .turn:last-child[data-status="succeeded"]', {
      timeout: STEP_MS,
    });
    expect(
      await other.$$eval('.live .turn', (turns) =>
        turns.slice(-2).map((turn) => turn.getAttribute('data-status')),
      ),
    ).toEqual(['succeeded', 'succeeded']);
    expect(await other.$('.live .turn[data-queued]')).toBeNull();
    // The held run's next model request carried the steer; the queued run's came after it.
    const requests = slow.requests.slice(first).map((messages) => JSON.stringify(messages));
    const steered = requests.findIndex((text) => text.includes('Focus on the moon.'));
    const queuedAt = requests.findIndex((text) => text.includes('Then summarise the tides.'));
    expect(steered).toBeGreaterThan(0);
    expect(requests[steered]).toContain('Please wait while I think.');
    expect(requests[steered]).not.toContain('Then summarise the tides.');
    expect(queuedAt).toBeGreaterThan(steered);
    expect(requests.some((text) => text.includes('Also list the planets.'))).toBe(false);
    expect(await other.$('.composer button[type="submit"]')).not.toBeNull();
    expect(await other.$eval('.composer button[type="submit"]', (node) => node.textContent)).toBe(
      'Send',
    );
  });

  it('says when a steer arrived after its run ended, and queues it instead on request', async ({
    onTestFailed,
  }) => {
    onTestFailed(() => slow.release()); // A held run left behind would stall the steps after.
    const target = await sendHeld('Please wait for a steer that never lands.');
    await other.type('#message', 'Mention the sun.');
    await other.click('.composer button.steer');
    await other.waitForSelector(`.turn[data-run="${target}"] [data-steer]`, { timeout: STEP_MS });
    await other.click(`.turn[data-run="${target}"] button.cancel`);
    const offer = `.turn[data-run="${target}"] [data-steer] button.queue-instead`;
    await other.waitForSelector(offer, { timeout: STEP_MS });
    expect(
      await other.$eval(`.turn[data-run="${target}"] [data-steer]`, (node) => node.textContent),
    ).toContain('The reply ended before your message reached it.');
    await other.focus(offer);
    await other.keyboard.press('Enter');
    await other.waitForFunction(
      () =>
        document.querySelector('.live .turn:last-child .message.user p')?.textContent ===
          'Mention the sun.' &&
        document.querySelector('.live .turn:last-child')?.getAttribute('data-status') ===
          'succeeded',
      { timeout: STEP_MS },
    );
    expect(await other.$(`.turn[data-run="${target}"] [data-steer]`)).toBeNull();
  });

  it('sends with Enter (Shift+Enter adds a line); shows the failed run reloaded from history with its error, and retries it', async () => {
    await other.type('#message', 'Please refuse');
    await other.keyboard.down('Shift');
    await other.keyboard.press('Enter');
    await other.keyboard.up('Shift');
    await other.type('#message', 'this.');
    await other.keyboard.press('Enter');
    await other.waitForSelector('.live .turn:last-child[data-status="failed"]', {
      timeout: STEP_MS,
    });
    await other.reload();
    const failed = '.history .unfinished[data-status="failed"]';
    await other.waitForSelector(`${failed} button.retry`, { timeout: STEP_MS });
    expect(await other.$eval(`${failed} .run-status`, (node) => node.textContent)).toContain(
      REFUSAL,
    );
    await other.click(`${failed} button.retry`);
    await other.waitForSelector('.live .turn:last-child[data-status="failed"]', {
      timeout: STEP_MS,
    });
    expect(await other.$eval('.live .turn:last-child .message.user p', (n) => n.textContent)).toBe(
      'Please refuse\nthis.',
    );
  });

  it('shows a citation of a document that does not exist as unverified, with its reason', async () => {
    await other.type('#message', 'Please cite the notes.');
    await other.keyboard.press('Enter');
    await other.waitForSelector('.live .turn:last-child[data-status="succeeded"] .citation-chip', {
      timeout: STEP_MS,
    });
    expect(
      await other.$eval('.live .turn:last-child .citation-summary', (node) => node.textContent),
    ).toBe('0 of 1 citation verified');
    const chip = await other.$eval('.live .turn:last-child .citation-chip', (node) => ({
      status: node.getAttribute('data-status'),
      unverified: node.classList.contains('unverified'),
      summary: node.querySelector('summary')?.textContent ?? '',
    }));
    expect(chip).toMatchObject({ status: 'unknown_document', unverified: true });
    expect(chip.summary).not.toContain('✓');
  });

  it('reconnects by itself when the daemon is killed and restarted, and shows the active run interrupted', async () => {
    const global = slowDaemon as string[];
    await sendHeld('Please wait again.');
    const status = await repaJson<{ pid: number }>(sandbox, [...global, 'daemon', 'status'], {
      global: false,
    });
    process.kill(status.json.pid, 'SIGKILL');
    await other.waitForSelector('.connection-reconnecting', { timeout: STEP_MS });
    // After a crash the page says what brings it back: a start (this address is served again).
    expect(await other.$eval('.connection-reconnecting', (node) => node.textContent)).toContain(
      'If it crashed, start it again (repa daemon start): this page reconnects by itself.',
    );
    const start = await repaJson(sandbox, [...global, 'daemon', 'start', '--model', SLOW_MODEL], {
      global: false,
    });
    expect(start.code, start.stderr).toBe(0);
    await other.waitForSelector('.connection-open', { timeout: STEP_MS });
    await other.waitForSelector('.live .turn:last-child[data-status="interrupted"]', {
      timeout: STEP_MS,
    });
    expect(await other.$('.live .turn:last-child button.retry')).not.toBeNull();
    await other.close();
    await page.bringToFront(); // A page in the background gets no animation frames.
  });

  it('renders a <script>, an event handler and a javascript: link in an answer inert', async () => {
    await send('Read notes/evil.md');
    await lastTurnReaches('succeeded');
    const answer = await page.$eval('.live .turn:last-child .markdown', (node) => ({
      text: node.textContent ?? '',
      scripts: node.querySelectorAll('script').length,
      images: node.querySelectorAll('img').length,
      handlers: [...node.querySelectorAll('*')].filter((element) =>
        [...element.attributes].some((attribute) => attribute.name.startsWith('on')),
      ).length,
      links: [...node.querySelectorAll('a')].map((a) => ({
        href: a.getAttribute('href'),
        target: a.getAttribute('target'),
        rel: a.getAttribute('rel'),
      })),
    }));
    expect(answer.text).toContain('<script>window.__pwned = "script"</script>');
    expect(answer.scripts).toBe(0);
    expect(answer.images).toBe(0);
    expect(answer.handlers).toBe(0);
    expect(answer.links.some((link) => link.href?.startsWith('javascript:'))).toBe(false);
    expect(answer.links).toContainEqual({
      href: 'https://example.com/docs',
      target: '_blank',
      rel: 'noopener noreferrer',
    });
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBe(
      undefined,
    );
  });

  it('keeps the message box in view at 1280 and 390 px: the conversation scrolls, not the page', async () => {
    const composerInView = () =>
      page.evaluate(() => {
        const box = document.querySelector('#message')?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    await page.setViewport({ width: 1280, height: 860 });
    expect(await page.$$eval('.live .turn', (turns) => turns.length)).toBeGreaterThan(2);
    await page.screenshot({ path: join(SHOTS, 'web-1280.png') as `${string}.png` });
    expect(await composerInView()).toBe(true);
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeLessThanOrEqual(0);
    await page.setViewport({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'web-390.png') as `${string}.png` });
    for (const y of [0, 10_000]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      expect(await composerInView()).toBe(true);
    }
  });

  it('fits a 360 px wide screen without sideways scrolling', async () => {
    await page.setViewport({ width: 360, height: 800 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.setViewport({ width: 1280, height: 860 });
  });
  it('labels every control and reaches them by keyboard in reading order', async () => {
    const unlabelled = await page.$$eval(
      'input, textarea, select',
      (controls) =>
        controls.filter((control) => (control as HTMLInputElement).labels?.length === 0).length,
    );
    expect(unlabelled).toBe(0);
    expect(await page.$$eval('[onclick], div[role="button"]', (nodes) => nodes.length)).toBe(0);
    await page.reload();
    await page.waitForSelector('#message', { timeout: STEP_MS });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('space-path');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Open space');
  });
});
