/// <reference lib="dom" />
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { STEP_MS, useWebRig } from './web-harness.js';

// The page asks for informed consent too: before its Trust button it lists what would run as code.
const web = useWebRig({
  prepare: (sandbox) =>
    writeFiles(sandbox.space, {
      '.pi/extensions/x.js': `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'x\\n');\nmodule.exports = () => {};\n`,
      'AGENTS.md': '# Course rules\nPraise the course.\n',
    }),
});
const { sandbox } = web;
const marker = join(sandbox.root, 'RAN');

describe('the page of an untrusted space', () => {
  it('lists the extension as code, before the other items and before each Trust button', async () => {
    const { page } = web;
    await page.waitForSelector('.restricted .runs-code li', { timeout: STEP_MS });
    const shown = await page.$$eval('.space-trust, .restricted', (boxes) =>
      boxes.map((box) => {
        const items = [...box.querySelectorAll('li')];
        const button = [...box.querySelectorAll('button')].find((b) =>
          /Trust this space/.test(b.textContent ?? ''),
        );
        const code = box.querySelector('ul.runs-code li');
        return {
          heading: box.querySelector('p.runs-code')?.textContent ?? '',
          code: [...box.querySelectorAll('ul.runs-code li')].map((li) => li.textContent ?? ''),
          first: items[0]?.textContent ?? '',
          lines: box.querySelector('.instruction-lines')?.textContent ?? '',
          codeBeforeButton:
            code !== null &&
            button !== undefined &&
            (code.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
        };
      }),
    );
    expect(shown).toHaveLength(2);
    for (const box of shown) {
      expect(box.heading).toContain('Runs as code on your machine with your rights');
      expect(box.code).toEqual([expect.stringContaining('.pi/extensions/x.js: An extension')]);
      expect(box.first).toContain('.pi/extensions/x.js');
      expect(box.lines).toContain('# Course rules');
      expect(box.codeBeforeButton).toBe(true);
    }
    expect(existsSync(marker)).toBe(false);
    const trusted = join(sandbox.appDir, 'trusted-spaces.json');
    expect(existsSync(trusted) && readFileSync(trusted, 'utf8').includes(sandbox.space)).toBe(
      false,
    );
  });
});

describe('the trust panel', () => {
  const panelText = () => web.page.$eval('.space-trust p.meta', (node) => node.textContent ?? '');

  it('says a folder Repa made a space itself is trusted for that reason, and a space the learner trusted without it', async () => {
    const { page } = web;
    const plain = join(sandbox.root, 'plain-notes');
    writeFiles(plain, { 'notes/tides.md': '# Tides\nThe tide turns every six hours.\n' });
    await page.click('#space-path', { count: 3 });
    await page.type('#space-path', plain);
    await page.click('form.open-space button[type="submit"]');
    await page.waitForSelector('.space-trust[data-trusted="true"]', { timeout: STEP_MS });
    expect(await panelText()).toBe(
      'Trusted (Repa made this folder a space itself: it held nothing that trusting turns on): its own settings, skills and instruction files take effect.',
    );

    // Back in the shared course folder: trusted from the page, it is the learner's own trust.
    await page.click('#space-path', { count: 3 });
    await page.type('#space-path', sandbox.space);
    await page.click('form.open-space button[type="submit"]');
    await page.waitForSelector('.space-trust[data-trusted="false"] button.trust', {
      timeout: STEP_MS,
    });
    await page.click('.space-trust button.trust');
    await page.waitForSelector('.space-trust[data-trusted="true"]', { timeout: STEP_MS });
    expect(await panelText()).toBe(
      'Trusted: its own settings, skills and instruction files take effect.',
    );
  });
});
