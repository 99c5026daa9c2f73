/// <reference lib="dom" />
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePdf } from '@repa/fixtures';
import { repaJson, writeFiles } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastTurnReaches as lastTurnOf, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// `repa web` end to end: the built web app in a real headless Chromium, served by a real daemon on
// the offline responder. One browser for the whole file; the steps build on each other in order.
// Runs held on a slow model (cancel, queue, steer, retry, reconnect) are in web-held-runs.test.ts.

// What repa-offline answers from a file's content: a script, an event handler and a javascript: link.
const EVIL = [
  '# Payload',
  '',
  'Danger <script>window.__pwned = "script"</script> <img src="x" onerror="window.__pwned = \'img\'"> here.',
  'Click [this link](javascript:window.__pwned=1) or [the docs](https://example.com/docs).',
  '',
].join('\n');

const web = useWebRig({
  open: false,
  prepare: (sandbox) => writeFiles(sandbox.space, { 'notes/evil.md': EVIL }),
});
const { sandbox } = web;
/** Where the 1280 and 390 px pictures go. */
const SHOTS = web.shots;

beforeAll(async () => {
  await web.page.evaluateOnNewDocument(() => {
    (window as unknown as { __pwned?: unknown }).__pwned = undefined;
  });
});

/** The `data-status` of the last turn once it is `status`. */
const lastTurnReaches = (status: string) => lastTurnOf(web.page, status);
const send = (text: string) => sendMessage(web.page, text);

async function settingSource(key: string): Promise<string> {
  // A view is drawn when its tab is first chosen, its settings once the daemon answered.
  await web.page.waitForSelector(`li.setting[data-key="${key}"] .source`, { timeout: STEP_MS });
  return web.page.$eval(
    `li.setting[data-key="${key}"] .source`,
    (node) => node.getAttribute('data-source') ?? '',
  );
}
describe('repa web in Chromium', () => {
  it('opens the space given with --space after the secret became a cookie (and left the address)', async () => {
    await web.page.goto(web.rig.url);
    expect(new URL(web.page.url()).search).toBe('');
    const cookies = await web.rig.browser.cookies();
    expect(cookies.find((cookie) => cookie.name.startsWith('repa_web_'))).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    await web.page.waitForSelector('.connection-open', { timeout: STEP_MS });
    await web.page.waitForSelector('#message', { timeout: STEP_MS });
    expect(await web.page.$eval('#space-path', (input) => (input as HTMLInputElement).value)).toBe(
      sandbox.space,
    );
  });

  it('sends a request and shows the answer while it streams, with the tool call naming its file', async () => {
    // Every distinct text the answer showed before the run ended.
    await web.page.evaluate(() => {
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
    const turn = await web.page.$eval('.live .turn:last-child', (node) => node.textContent);
    expect(turn).toContain('From notes/a.md: The tide turns every six hours.');
    expect(turn).toMatch(/read\s+notes\/a\.md\s+done/);
    // Its citation is checked: a chip per citation and a summary.
    const summary = await web.page.$eval(
      '.live .turn:last-child .citation-summary',
      (n) => n.textContent,
    );
    expect(summary).toBe('1 of 1 citation verified');
    const chip = await web.page.$eval('.live .turn:last-child .citation-chip', (node) => [
      node.getAttribute('data-status'),
      node.querySelector('summary')?.textContent,
    ]);
    expect(chip).toEqual(['verified', '[1] notes/a.md, line 3 ✓']);
    // Once the note changes, the answer shown from history (a second tab at the same address)
    // says its citation is of an older text.
    const note = join(sandbox.space, 'notes', 'a.md');
    const before = readFileSync(note);
    appendFileSync(note, 'Neap tides are weaker.\n');
    const again = await web.rig.browser.newPage();
    try {
      await again.goto(web.page.url());
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
      await web.page.bringToFront(); // A page in the background gets no animation frames.
    }
    // The reply names the model its run was accepted with, and why.
    const model = await web.page.$eval(
      '.live .turn:last-child .run-model',
      (node) => node.textContent,
    );
    expect(model?.replace(/\s+/g, ' ').trim()).toBe(
      "Model: repa-offline (local responder, no language model) — the daemon's --model, thinking off",
    );
    const seen = await web.page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    const final = await web.page.$eval(
      '.live .turn:last-child .markdown',
      (node) => node.textContent,
    );
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
    const session = await web.page.evaluate(() =>
      new URLSearchParams(location.hash.slice(1)).get('session'),
    );
    expect(session).toBeTruthy();
    const fresh = await web.rig.browser.newPage();
    try {
      await fresh.setViewport({ width: 1280, height: 900 });
      await fresh.goto(new URL('/', web.rig.url).href); // The cookie is set: no secret, no space named.
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
    await web.page.bringToFront();
  });

  it('shows the save receipt of an edit, and the file changed on disk', async () => {
    await send('Please replace "six hours" with "twelve hours" in notes/a.md');
    await lastTurnReaches('succeeded');
    const receipt = await web.page.$eval(
      '.live .turn:last-child .receipt',
      (node) => node.textContent,
    );
    expect(receipt).toMatch(/Saved notes\/a\.md \(\d+ bytes\)/);
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('twelve hours');
  });

  it('shows the edit’s diff inline, and its Undo first shows what it restores, then restores the note', async () => {
    const turn = '.live .turn:last-child';
    expect(await web.page.$eval(`${turn} .save-diff summary`, (node) => node.textContent)).toBe(
      '+1 −1 changed lines',
    );
    await web.page.click(`${turn} .save-diff summary`);
    expect(await web.page.$eval(`${turn} .save-diff .diff-del`, (node) => node.textContent)).toBe(
      '-The tide turns every six hours.\n',
    );
    expect(await web.page.$eval(`${turn} .save-diff .diff-add`, (node) => node.textContent)).toBe(
      '+The tide turns every twelve hours.\n',
    );
    await web.page.click(`${turn} .receipts ~ .undo .undo-button`);
    await web.page.waitForSelector(`${turn} .rewind`, { timeout: STEP_MS });
    expect(
      await web.page.$eval(`${turn} .rewind .rewind-file.will`, (node) => node.textContent),
    ).toContain('Restore notes/a.md as it was before');
    // Shown first: nothing is written before the learner confirms.
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('twelve hours');
    await web.page.click(`${turn} .rewind .confirm-undo`);
    await web.page.waitForSelector(`${turn} .rewind.done`, { timeout: STEP_MS });
    expect(await web.page.$eval(`${turn} .rewind.done`, (node) => node.textContent)).toContain(
      'Restored notes/a.md as it was before',
    );
    expect(readFileSync(join(sandbox.space, 'notes/a.md'), 'utf8')).toContain('six hours');
    await web.page.screenshot({ path: join(sandbox.root, 'web-undo.png') as `${string}.png` });
  });

  it('edits the learning context with its revision check', async () => {
    await web.page.click('#context-heading ~ button');
    await web.page.waitForSelector('#context-draft');
    await web.page.type('#context-draft', '# Focus\n\nTides and the moon.');
    await web.page.click('#context-draft ~ .row button[type="submit"]');
    await web.page.waitForSelector('.context-revision', { timeout: STEP_MS });
    expect(await web.page.$eval('.context-body', (node) => node.textContent)).toContain(
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
    await web.page.click('#context-heading ~ details summary');
    await web.page.type('#context-sources', 'notes/plan.md');
    await web.page.click('#context-sources ~ button[type="submit"]');
    await web.page.waitForFunction(
      () =>
        document
          .querySelector('#context-heading ~ .panel-message')
          ?.textContent?.startsWith('Built with repa-offline'),
      { timeout: STEP_MS },
    );
    expect(await web.page.$eval('.context-body', (node) => node.textContent)).toContain('Plan');
    expect(
      await web.page.$eval('.context-revision', (node) => node.parentElement?.textContent),
    ).toContain('from notes/plan.md');
  });

  it('grants an outside PDF from the materials panel and lists it there and in the documents tree', async () => {
    const paper = join(sandbox.home, 'paper.pdf');
    writeFileSync(paper, makePdf([{ lines: ['Tides are caused by the moon.'] }]));
    await web.page.click('#materials-heading ~ details summary');
    await web.page.type('#material-path', paper);
    await web.page.type('#material-id', 'paper');
    await web.page.click('#materials-heading ~ details button[type="submit"]');
    await web.page.waitForSelector('.material[data-id="paper"]', { timeout: STEP_MS });
    expect(await web.page.$eval('.material[data-id="paper"]', (node) => node.textContent)).toMatch(
      /repa:material\/paper\s+PDF · \d+ B/u,
    );
    // The documents tree lists it under the granted materials at once (no run in between).
    await web.page.waitForSelector('.documents .pick[data-path="repa:material/paper"]', {
      timeout: STEP_MS,
    });
  });

  it('lists the session’s runs with their prompt-section report', async () => {
    await web.page.click('#tab-runs');
    await web.page.waitForSelector('.runs > li', { visible: true, timeout: STEP_MS });
    const runs = await web.page.$$eval('.runs > li', (items) =>
      items.map((item) => item.textContent ?? ''),
    );
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.join('\n')).toContain('succeeded');
    expect(runs.join('\n')).toMatch(/Base prompt\s+(included, \d+ chars|absent) — /);
  });

  it('changes a setting at the session level and shows its source level change, then resets it', async () => {
    const row = 'li.setting[data-key="prompts.environment"]';
    const sourceBecomes = (source: string) =>
      web.page.waitForFunction(
        (selector, wanted) =>
          document.querySelector(`${selector} .source`)?.getAttribute('data-source') === wanted,
        { timeout: STEP_MS },
        row,
        source,
      );
    await web.page.click('#tab-settings');
    expect(await settingSource('prompts.environment')).toBe('default');
    await web.page.click('#settings-level-session');
    await web.page.click(`${row} input[role="switch"]`);
    await sourceBecomes('session');
    expect(await web.page.$eval(`${row} .setting-value`, (node) => node.textContent)).toBe('off');
    expect(await web.page.$eval(`${row} .setting-level`, (node) => node.textContent)).toContain(
      'Set for this session: off.',
    );
    await web.page.click(`${row} .setting-level button.reset`);
    await sourceBecomes('default');
  });

  it('renders a <script>, an event handler and a javascript: link in an answer inert', async () => {
    await send('Read notes/evil.md');
    await lastTurnReaches('succeeded');
    const answer = await web.page.$eval('.live .turn:last-child .markdown', (node) => ({
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
    expect(
      await web.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
    ).toBe(undefined);
  });

  it('keeps the message box in view at 1280 and 390 px: the conversation scrolls, not the page', async () => {
    const composerInView = () =>
      web.page.evaluate(() => {
        const box = document.querySelector('#message')?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
      });
    await web.page.setViewport({ width: 1280, height: 860 });
    expect(await web.page.$$eval('.live .turn', (turns) => turns.length)).toBeGreaterThan(2);
    await web.page.screenshot({ path: join(SHOTS, 'web-1280.png') as `${string}.png` });
    expect(await composerInView()).toBe(true);
    expect(
      await web.page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeLessThanOrEqual(0);
    await web.page.setViewport({ width: 390, height: 844 });
    await web.page.screenshot({ path: join(SHOTS, 'web-390.png') as `${string}.png` });
    for (const y of [0, 10_000]) {
      await web.page.evaluate((top) => window.scrollTo(0, top), y);
      expect(await composerInView()).toBe(true);
    }
  });

  it('fits a 360 px wide screen without sideways scrolling', async () => {
    await web.page.setViewport({ width: 360, height: 800 });
    const overflow = await web.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await web.page.setViewport({ width: 1280, height: 860 });
  });
  it('labels every control and reaches them by keyboard in reading order', async () => {
    const unlabelled = await web.page.$$eval(
      'input, textarea, select',
      (controls) =>
        controls.filter((control) => (control as HTMLInputElement).labels?.length === 0).length,
    );
    expect(unlabelled).toBe(0);
    expect(await web.page.$$eval('[onclick], div[role="button"]', (nodes) => nodes.length)).toBe(0);
    await web.page.reload();
    await web.page.waitForSelector('#message', { timeout: STEP_MS });
    await web.page.keyboard.press('Tab');
    expect(await web.page.evaluate(() => document.activeElement?.id)).toBe('space-path');
    await web.page.keyboard.press('Tab');
    expect(await web.page.evaluate(() => document.activeElement?.textContent)).toBe('Open space');
  });
});
