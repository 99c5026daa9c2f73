/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnthropicEndpoint, startAnthropicEndpoint } from '@repa/fixtures';
import { repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// The page's controls in Chromium on a real daemon started with no model and no credentials, Pi's
// own `anthropic` provider pointed at a local endpoint speaking the Anthropic Messages protocol:
// typed settings, signing in from the page, the one-run model picker, the 390 px layout, and the
// README's picture of a study session. One daemon and one browser; the steps build on each other.

let endpoint: AnthropicEndpoint;
const web = useWebRig({
  model: false,
  prepare: async (sandbox) => {
    writeFiles(sandbox.space, {
      'biology/photosynthesis.md': PHOTOSYNTHESIS,
      'biology/cells.md': CELLS,
    });
    endpoint = await startAnthropicEndpoint([
      { kind: 'message', blocks: [{ type: 'text', text: 'Chloroplasts hold chlorophyll.' }] },
    ]);
    endpoint.configure(sandbox.agentDir, { provider: 'anthropic' });
  },
  cleanup: () => endpoint?.close(),
});
const { sandbox } = web;
/** Where the pictures go. */
const SHOTS = web.shots;
// The README's picture is written by `REPA_WRITE_SCREENSHOT=1`; otherwise it goes with the others.
const SCREENSHOT = process.env.REPA_WRITE_SCREENSHOT
  ? fileURLToPath(new URL('../../../docs/web-screenshot.png', import.meta.url))
  : join(SHOTS, 'web-screenshot.png');
const KEY = 'sk-ant-typed-in-the-page';
const PHOTOSYNTHESIS = [
  '# Photosynthesis',
  '',
  'Plants capture light energy in the chloroplasts, in the green pigment chlorophyll.',
  'The light-dependent reactions split water and release oxygen.',
  'The Calvin cycle fixes carbon dioxide into sugars using ATP and NADPH.',
  '',
  '## Limiting factors',
  '',
  'Light intensity, carbon dioxide concentration and temperature each limit the rate.',
  '',
].join('\n');
const CELLS =
  '# Cells\n\nThe mitochondrion releases energy from glucose in respiration.\nRibosomes build proteins.\n';
const authFile = join(sandbox.agentDir, 'auth.json');

const row = (key: string) => `li.setting[data-key="${key}"]`;

describe('the page’s controls', () => {
  it('sets a setting with its drop-down, text set empty apart from not set, and a refused value’s error beside its control', async () => {
    const { page } = web;
    await page.click('#tab-settings');
    await page.waitForSelector(`${row('prompts.fileChanges')} select`, { visible: true });
    // What a learner changes most comes first: the model and its thinking level.
    expect(
      (await page.$$eval('li.setting', (rows) => rows.map((node) => node.dataset.key))).slice(0, 2),
    ).toEqual(['model.id', 'model.thinkingLevel']);
    await page.click('#settings-level-space');
    await page.select(`${row('prompts.fileChanges')} select`, 'diff');
    await page.waitForSelector(`${row('prompts.fileChanges')} .source[data-source="space"]`, {
      timeout: STEP_MS,
    });
    const stored = await repaJson<{ items: { value: unknown; source: string }[] }>(sandbox, [
      'settings',
      'get',
      'prompts.fileChanges',
      '--space',
      sandbox.space,
    ]);
    expect(stored.json.items[0]).toMatchObject({ value: 'diff', source: 'space' });
    expect(
      await page.$eval(`${row('prompts.fileChanges')} .setting-level`, (node) => node.textContent),
    ).toContain('Set for this space: diff.');

    // Text set empty on purpose is not the same as not set.
    const append = row('prompts.append');
    const level = () => page.$eval(`${append} .setting-level`, (node) => node.textContent?.trim());
    expect(await level()).toBe('Not set for this space.');
    await page.click(`${append} button[type="submit"]`);
    await page.waitForSelector(`${append} .setting-level[data-set="true"]`, { timeout: STEP_MS });
    expect(await level()).toMatch(/^Set for this space: empty \(set on purpose\)\./);
    await page.click(`${append} .setting-level button.reset`);
    await page.waitForSelector(`${append} .setting-level[data-set="false"]`, { timeout: STEP_MS });

    // A value the item refuses: the daemon's error under the control, the control marked invalid.
    const input = `${row('history.maxDays')} input[type="number"]`;
    await page.click(input, { count: 3 });
    await page.type(input, '-5');
    await page.keyboard.press('Enter');
    const error = `${row('history.maxDays')} .setting-error`;
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent !== '',
      { timeout: STEP_MS },
      error,
    );
    expect(await page.$eval(error, (node) => node.textContent)).toBe(
      'Not saved: `history.maxDays` must be at least 0, not `-5` (it takes 0–36500).',
    );
    expect(await page.$eval(input, (node) => node.getAttribute('aria-invalid'))).toBe('true');
    const gap = await page.evaluate(
      (field, message) => {
        const a = document.querySelector(field)?.getBoundingClientRect();
        const b = document.querySelector(message)?.getBoundingClientRect();
        return a && b ? b.top - a.bottom : Number.POSITIVE_INFINITY;
      },
      input,
      error,
    );
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(40);
    await page.screenshot({ path: join(SHOTS, 'web-settings.png') as `${string}.png` });
  });

  it('cancels a sign-in, storing nothing; signs in with a key typed in the page, never showing it; the next run uses it', async () => {
    const { page } = web;
    await page.click('#tab-models');
    // The view is drawn when its tab is first chosen; its providers come from the daemon.
    await page.waitForSelector('#login-provider option:nth-child(2)', { timeout: STEP_MS });
    await page.select('#login-provider', 'anthropic');
    const field = '.login-steps input[type="password"]';
    // A sign-in closed before the key is given ends, and nothing is stored.
    await page.click('.login button[type="submit"]');
    await page.waitForSelector(field, { timeout: STEP_MS });
    await page.click('.login .login-cancel');
    await page.waitForFunction(
      () =>
        document.querySelector('.models-view .panel-message')?.textContent?.includes('cancelled'),
      { timeout: STEP_MS },
    );
    expect(await page.$(field)).toBeNull();
    const stored = () =>
      existsSync(authFile) ? JSON.parse(readFileSync(authFile, 'utf8')).anthropic : undefined;
    expect(stored()).toBeUndefined();
    await page.click('.login button[type="submit"]');
    await page.waitForSelector(field, { timeout: STEP_MS });
    await page.type(field, KEY);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document
          .querySelector('.models-view .panel-message')
          ?.textContent?.startsWith('Signed in to anthropic'),
      { timeout: STEP_MS },
    );
    expect(stored()?.key).toBe(KEY);
    const shown = () =>
      page.evaluate(
        (key) =>
          document.documentElement.outerHTML.includes(key) ||
          [...document.querySelectorAll('input, textarea')].some((node) =>
            (node as HTMLInputElement).value.includes(key),
          ),
        KEY,
      );
    expect(await shown()).toBe(false);
    await page.waitForSelector('.models-view .run-model[data-model^="anthropic/"]', {
      timeout: STEP_MS,
    });
    await page.screenshot({ path: join(SHOTS, 'web-models.png') as `${string}.png` });

    await page.click('#tab-study');
    await sendMessage(page, 'What holds the chlorophyll?');
    await lastTurnReaches(page, 'succeeded');
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(await page.$eval('.live .turn:last-child', (node) => node.textContent)).toContain(
      'Chloroplasts hold chlorophyll.',
    );
    expect(await shown()).toBe(false);
  });

  it('runs one request on the model picked for it, and the next on the session’s again', async () => {
    const { page } = web;
    await page.click('.run-choice summary');
    await page.select('#run-model', 'repa-offline');
    await sendMessage(page, 'What do the notes say about cells?');
    await lastTurnReaches(page, 'succeeded');
    expect(
      await page.$eval('.live .turn:last-child .run-model', (node) =>
        node.getAttribute('data-model'),
      ),
    ).toBe('repa-offline');
    expect(endpoint.requests).toHaveLength(1);
    expect(await page.$eval('#run-model', (node) => (node as HTMLSelectElement).value)).toBe('');
    await sendMessage(page, 'And what holds the chlorophyll?');
    await lastTurnReaches(page, 'succeeded');
    expect(endpoint.requests).toHaveLength(2);
    await page.click('.run-choice summary');
  });

  it('at 390 px: one column, the sessions in a drawer, the message box in view', async () => {
    const { page } = web;
    await page.setViewport({ width: 390, height: 844 });
    const inView = (selector: string) =>
      page.evaluate((wanted) => {
        const box = document.querySelector(wanted)?.getBoundingClientRect();
        return (
          box !== undefined && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
        );
      }, selector);
    for (const y of [0, 100_000]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      expect(await inView('#message')).toBe(true);
    }
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await page.$eval('#sidebar', (node) => getComputedStyle(node).display)).toBe('none');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'web-390-controls.png') as `${string}.png` });
    await page.click('.drawer-toggle');
    await page.waitForSelector('#sidebar .sessions', { visible: true });
    expect(await inView('#sidebar .sessions li:first-child button')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'web-390-drawer.png') as `${string}.png` });
    await page.keyboard.press('Escape');
    await page.waitForSelector('#sidebar', { hidden: true });
    expect(await page.$eval('.drawer-toggle', (node) => node.getAttribute('aria-expanded'))).toBe(
      'false',
    );
    await page.setViewport({ width: 1280, height: 860 });
  });

  it('at 390 px: a session opens at its newest turn just above the message box, and a new answer stays there', async () => {
    const { page } = web;
    await page.setViewport({ width: 390, height: 844 });
    // The newest turn's end seen from the message box pinned below it: in view, at most 48 px above
    // (scroll positions are whole pixels).
    const newestAtEnd = () =>
      page
        .waitForFunction(
          () => {
            const turns = document.querySelectorAll('.thread .turn');
            const newest = turns[turns.length - 1]?.getBoundingClientRect();
            const box = document.querySelector('.composer')?.getBoundingClientRect();
            if (!newest || !box) return false;
            const gap = box.top - newest.bottom;
            return gap >= -1 && gap <= 48 && newest.bottom > 0;
          },
          { timeout: STEP_MS },
        )
        .then(() => true)
        .catch(() => false);
    try {
      await page.reload();
      await page.waitForSelector('.history .turn', { timeout: STEP_MS });
      expect(await page.$$eval('.history .turn', (turns) => turns.length)).toBeGreaterThan(2);
      expect(await newestAtEnd()).toBe(true);
      await page.screenshot({ path: join(SHOTS, 'web-390-opened.png') as `${string}.png` });
      await page.click('.run-choice summary');
      await page.select('#run-model', 'repa-offline');
      await sendMessage(page, 'What do the notes say about chlorophyll?');
      await lastTurnReaches(page, 'succeeded');
      expect(await newestAtEnd()).toBe(true);
    } finally {
      await page.setViewport({ width: 1280, height: 860 });
    }
  });

  it('takes the README’s picture: a study question answered from the notes, with citations', async () => {
    const { page } = web;
    // A folder of biology notes, opened by its path, its learning context built from two notes.
    const biology = join(sandbox.home, 'Biology');
    writeFiles(biology, {
      'photosynthesis.md': PHOTOSYNTHESIS,
      'cells.md': CELLS,
      'questions.md': '# Open questions\n\n- Why is chlorophyll green?\n',
    });
    await page.click('#space-path', { count: 3 });
    await page.type('#space-path', biology);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (root) =>
        document.querySelector('.known-space[aria-current="true"] .meta')?.textContent === root,
      { timeout: STEP_MS },
      biology,
    );
    endpoint.replies = [
      {
        kind: 'message',
        blocks: [
          {
            type: 'text',
            text: '## Working on\nPhotosynthesis: the light-dependent reactions and the Calvin cycle, for Friday’s test.\n\n## Open\n- Why the rate levels off in bright light.\n- How cells use the sugar (respiration in the mitochondrion).',
          },
        ],
      },
    ];
    const built = await repaJson(sandbox, [
      'context',
      'build',
      '--space',
      biology,
      'photosynthesis.md',
      'cells.md',
    ]);
    expect(built.code, built.stderr).toBe(0);
    endpoint.replies = [
      {
        kind: 'message',
        blocks: [{ type: 'tool_use', name: 'read', input: { path: 'photosynthesis.md' } }],
        usage: { input: 1200, output: 18 },
      },
      {
        kind: 'message',
        blocks: [
          {
            type: 'text',
            text: [
              'Photosynthesis runs in two stages inside the chloroplast.',
              '',
              '1. **Light-dependent reactions** capture light and split water, which is where the oxygen comes from [photosynthesis.md:4 "split water and release oxygen"].',
              '2. **The Calvin cycle** then uses that ATP and NADPH to turn carbon dioxide into sugar [photosynthesis.md:5 "fixes carbon dioxide into sugars"].',
              '',
              'Your notes add that light, CO₂ and temperature each set a ceiling on the rate [photosynthesis.md:9 "each limit the rate"]. A good next question for your list: why does the rate level off in bright light?',
            ].join('\n'),
          },
        ],
        usage: { input: 1850, output: 142 },
      },
    ];
    await sendMessage(page, 'Explain the two stages of photosynthesis using my notes.');
    await lastTurnReaches(page, 'succeeded');
    await page.click('.session-head .rename-session');
    await page.click('#session-title', { count: 3 });
    await page.type('#session-title', 'Photosynthesis revision');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('.session-title')?.textContent === 'Photosynthesis revision',
      { timeout: STEP_MS },
    );
    await page.waitForSelector('.live .turn:last-child .citation-chip', { timeout: STEP_MS });
    expect(
      await page.$$eval(
        '.live .turn:last-child .citation-chip.unverified',
        (chips) => chips.length,
      ),
    ).toBe(0);
    // The Runs view: the run's duration, the provider's tokens and the cost from Pi's price table.
    await page.click('#tab-runs');
    await page.waitForSelector('.runs > li .run-usage', { visible: true, timeout: STEP_MS });
    expect(
      await page.$eval('.runs > li:first-child .run-usage', (node) => node.textContent),
    ).toMatch(/^3,210 tokens \(3,050 in, 160 out\), \$\d+\.\d+$/);
    expect(
      await page.$eval('.runs > li:first-child .run-facts', (node) => node.textContent),
    ).toMatch(/anthropic\/\S+ · \d+\.\d s · /);
    await page.screenshot({ path: join(SHOTS, 'web-runs.png') as `${string}.png` });
    await page.click('#tab-study');
    await page.waitForSelector('.context-sources li[data-state="unchanged"]', { timeout: STEP_MS });
    await page.$eval('.thread', (thread) => {
      // The question and the start of its answer in view.
      const asked = thread.querySelector<HTMLElement>('.live .turn:last-child');
      thread.scrollTop = asked ? asked.offsetTop - (thread as HTMLElement).offsetTop - 8 : 0;
    });
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT as `${string}.png` });
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString()).toBe('PNG');
  });

  it('marks a source changed since the context was built, and rebuilds it on the space’s model', async () => {
    const { page } = web;
    writeFiles(join(sandbox.home, 'Biology'), {
      'cells.md': `${CELLS}Chloroplasts hold chlorophyll.\n`,
    });
    await page.reload();
    await page.waitForSelector('.context-sources li[data-state="changed"]', { timeout: STEP_MS });
    expect(
      await page.$eval('.context-sources li[data-state="changed"]', (node) => node.textContent),
    ).toMatch(/cells\.md\s+changed since built/);
    endpoint.replies = [
      {
        kind: 'message',
        blocks: [{ type: 'text', text: '## Working on\nCells and photosynthesis.' }],
      },
    ];
    const before = endpoint.requests.length;
    await page.click('.context-body ~ .rebuild');
    await page.waitForSelector('.context-sources li[data-state="changed"]', {
      hidden: true,
      timeout: STEP_MS,
    });
    expect(endpoint.requests.length).toBe(before + 1);
    expect(await page.$eval('.context-body', (node) => node.textContent)).toContain(
      'Cells and photosynthesis.',
    );
  });
});
