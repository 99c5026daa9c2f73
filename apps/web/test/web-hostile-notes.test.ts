/// <reference lib="dom" />

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { writeFiles } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage, STEP_MS, useWebRig } from './web-harness.js';

// What a space someone else made can hold, in the page through a real daemon and headless
// Chromium: a note naming things elsewhere loads nothing from there, and names no path can give are
// shown as they are, with why they cannot be opened.

/** A second HTTP server on the loopback, standing in for "elsewhere": every path it was asked. */
const asked: string[] = [];
let elsewhere: Server;
let remote = '';
/** The headers the page was served with. */
let headers: Record<string, string> = {};
const web = useWebRig({
  open: false,
  prepare: async () => {
    elsewhere = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    remote = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  },
  cleanup: () => new Promise((resolve) => elsewhere?.close(resolve)),
});
const { sandbox } = web;
/** Where the 1280 px pictures go. */
const SHOTS = web.shots;

beforeAll(async () => {
  web.page.on('response', (response) => {
    if (response.request().resourceType() === 'document') {
      headers = response.headers();
    }
  });
  await openPage(web.page, web.rig.url);
});

/** Opens `path` (in a folder of the space's root) from the documents tree, rendered. */
async function openRendered(path: string): Promise<void> {
  const folder = path.split('/')[0] ?? '';
  const link = `.document-tree a.file-link[data-reader-path="${path}"]`;
  const toggle = `.tree-folder[data-path="${folder}"] > .tree-toggle`;
  await web.page.waitForSelector(toggle, { timeout: STEP_MS });
  if ((await web.page.$(link)) === null) {
    await web.page.click(toggle);
    await web.page.waitForSelector(link, { timeout: STEP_MS });
  }
  await web.page.click(link);
  await web.page.waitForFunction(
    (wanted) =>
      document.querySelector('#reader-heading')?.textContent === wanted &&
      document.querySelector('.reader-body .reader-block') !== null,
    { timeout: STEP_MS },
    path,
  );
}

describe('a note that names things elsewhere, opened in the reader', () => {
  it('loads nothing from elsewhere even past the page policy: images become links named by their text; the policy forbids remote loads', async () => {
    writeFiles(sandbox.space, {
      'notes/remote.md': [
        '# Remote',
        '',
        `Inline: ![the tide chart](${remote}/markdown-image.png "Tides")`,
        '',
        `Reference: ![moon][moon]`,
        '',
        `Raw: <img src="${remote}/raw-image.png"> <link rel="prefetch" href="${remote}/prefetch">`,
        '',
        `<style>body { background: url(${remote}/css-url.png) }</style>`,
        '',
        `A link: [the source](${remote}/link) and ${remote}/autolink`,
        '',
        `[moon]: ${remote}/reference-image.png`,
        '',
      ].join('\n'),
    });
    // The renderer alone must load nothing: the page's own policy is checked on its own below.
    await web.page.setBypassCSP(true);
    await web.page.reload();
    await web.page.waitForSelector('.connection-open', { timeout: STEP_MS });
    await openRendered('notes/remote.md');
    // Time for anything the page might fetch after it rendered.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(asked).toEqual([]);
    expect(await web.page.$$('.reader-body img')).toEqual([]);
    await web.page.screenshot({ path: join(SHOTS, 'web-remote-images-1280.png') });
    // Each image is shown as a link to its address, named by its text.
    expect(
      await web.page.$$eval('.reader-body a.image-link', (links) =>
        links.map((link) => [link.textContent, link.getAttribute('href')]),
      ),
    ).toEqual([
      ['Image: the tide chart', `${remote}/markdown-image.png`],
      ['Image: moon', `${remote}/reference-image.png`],
    ]);
    const policy = headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/(^|;)\s*default-src 'none'/u);
    expect(policy).toMatch(/(^|;)\s*img-src 'self' data:(;|$)/u);
    expect(policy).toMatch(
      /(^|;)\s*connect-src ws:\/\/127\.0\.0\.1:\d+ http:\/\/127\.0\.0\.1:\d+ ws:\/\/localhost:\d+ http:\/\/localhost:\d+(;|$)/u,
    );
    // A link's host is not looked up before it is followed.
    expect(headers['x-dns-prefetch-control']).toBe('off');
  });
});

describe('a folder holding names no path can give, in the documents tree', () => {
  it('shows each name escaped with why it cannot be opened, offers no link to it, and opening its lossy name says why', async () => {
    const odd = join(sandbox.space, 'odd');
    writeFiles(odd, { 'ok.md': 'ok\n' });
    writeFileSync(join(odd, 'a\nb.md'), 'x');
    writeFileSync(
      Buffer.concat([Buffer.from(`${odd}/bad`), Buffer.from([0xff]), Buffer.from('.md')]),
      'x',
    );
    await web.page.reload();
    await web.page.waitForSelector('.tree-folder[data-path="odd"] > .tree-toggle', {
      timeout: STEP_MS,
    });
    await web.page.click('.tree-folder[data-path="odd"] > .tree-toggle');
    await web.page.waitForSelector('a.file-link[data-reader-path="odd/ok.md"]', {
      timeout: STEP_MS,
    });
    expect(
      await web.page.$$eval('.tree-unnamed', (items) =>
        items.map((item) => item.textContent?.replace(/\s+/gu, ' ').trim()),
      ),
    ).toEqual([
      'a\\nb.md cannot be opened: The path "a\\nb.md" contains a control character.',
      'bad\\xFF.md cannot be opened: The name "bad\\xFF.md" is not valid UTF-8, so Repa cannot name the file to open or change it.',
    ]);
    expect(await web.page.$$('.tree-unnamed a, .tree-unnamed input')).toEqual([]);
    await web.page.screenshot({ path: join(SHOTS, 'web-unnamed-files-1280.png') });
    // What a listing that decoded the name lossily offered: the file is said to be unnamed, not gone.
    const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    await client.connect();
    try {
      const error = await client
        .request('files.read', { space: sandbox.space, path: 'odd/bad\uFFFD.md' })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('"bad\\xFF.md" is not valid UTF-8'),
      });
    } finally {
      await client.close();
    }
  });
});
