/// <reference lib="dom" />
import { rmSync } from 'node:fs';
import { createSandbox, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, STEP_MS, startWebRig, type WebRig } from './web-harness.js';

// The learning context's staleness in the page: shown while the page is open, and kept by an edit
// of the body (only a build records new versions of its sources).

const sandbox = createSandbox();
let rig: WebRig;

beforeAll(async () => {
  writeFiles(sandbox.space, {
    'tides.md': '# Tides\n\nThe Moon pulls the sea.\n',
    'waves.md': '# Waves\n\nWind makes waves.\n',
  });
  rig = await startWebRig(sandbox);
  const built = await repaJson(sandbox, ['context', 'build', 'tides.md', 'waves.md']);
  expect(built.code, built.stderr).toBe(0);
  await openPage(rig.page, rig.url);
});

afterAll(async () => {
  await rig?.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('the learning context in the page', () => {
  it('marks a source changed while the page is open, and an edit of the body keeps it changed', async () => {
    const { page } = rig;
    await page.waitForSelector('.context-sources li[data-state="unchanged"]', { timeout: STEP_MS });
    writeFiles(sandbox.space, { 'tides.md': '# Tides\n\nThe Moon and the Sun pull the sea.\n' });
    // No reload and no focus event: the page notices on its own.
    await page.waitForSelector('.context-sources li[data-state="changed"]', { timeout: STEP_MS });
    const shown = () =>
      page.$$eval('.context-sources li', (items) =>
        items.map((item) => [item.querySelector('code')?.textContent, item.dataset.state]),
      );
    expect(await shown()).toEqual([
      ['tides.md', 'changed'],
      ['waves.md', 'unchanged'],
    ]);
    await page.click('.edit-context');
    await page.waitForSelector('#context-draft', { timeout: STEP_MS });
    await page.type('#context-draft', '\nMy own note.');
    await page.click('#context-draft ~ .row button[type="submit"]');
    await page.waitForFunction(
      () => document.querySelector('.context-body')?.textContent?.includes('My own note.'),
      { timeout: STEP_MS },
    );
    expect(await shown()).toEqual([
      ['tides.md', 'changed'],
      ['waves.md', 'unchanged'],
    ]);
  });
});
