// Benchmark — the page: the web app's JavaScript and CSS as a browser transfers them (gzip), and
// the time to show a 1,000-message session in headless Chromium, against the real daemon serving
// the page (the session made by real runs on the offline model).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { makePdf } from '@repa/fixtures';
import puppeteer from 'puppeteer-core';
import { quantile } from '../lib/compare.mjs';
import { NODE, startDaemon, stopDaemon } from '../lib/daemon-process.mjs';
import { log } from '../lib/progress.mjs';
import { metricRows } from '../lib/report.mjs';
import { trackingClient } from '../lib/tracking-client.mjs';

/**
 * Targets (issue: a light page): ≤ 150 KB of JavaScript + CSS gzip; a 1,000-message session shown
 * in ≤ 300 ms; a 311-page PDF's first page drawn in the reader ≤ 2 s after the click (design R123).
 */
const TARGETS = { transfer: { max: 150 }, render: { max: 300 }, pdf: { max: 2000 } };
/** The long PDF's pages (40 lines each). */
const PDF_PAGES = 311;
const CHROMIUM = process.env.REPA_CHROMIUM ?? '/usr/bin/chromium';
const WEB_DIST = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url));
/** Each run reads a note and answers from it: user, tool call, tool result, answer. */
const MESSAGES_PER_RUN = 4;
const MESSAGES = 1_000;
const NOTES = 20;

/**
 * The built page's script, the chunks it imports at once (not those loaded on first use, such as
 * pdf.js) and the stylesheet, raw and gzip (level 9, as a server would cache them).
 */
function builtAssets() {
  const script = readFileSync(join(WEB_DIST, 'app.js'), 'utf8');
  const chunks = [...script.matchAll(/(?:from|import)\s*"\.\/(chunks\/[\w.-]+\.js)"/gu)].map(
    (match) => match[1],
  );
  return ['app.js', ...new Set(chunks), 'styles.css'].map((name) => {
    const bytes = readFileSync(join(WEB_DIST, name));
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

/** `repa web --no-open --json` against the daemon of `appDirectory`: the page's address. */
function webAddress(appDirectory, agentDir, space) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      NODE,
      [CLI_MAIN, '--app-dir', appDirectory, '--agent-dir', agentDir, 'web', '--no-open'],
      { cwd: space, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', reject);
    // 'close', not 'exit': the output may still be arriving when the process has exited.
    child.once('close', (code) =>
      code === 0 && out.startsWith('http')
        ? resolve(out.trim())
        : reject(new Error(`repa web failed (${code}): ${err || out}`)),
    );
  });
}

/** A session of `MESSAGES` messages made by real runs through the daemon. */
async function longSession(client, space) {
  const { session } = await client.client.request('session.create', { space });
  const runs = MESSAGES / MESSAGES_PER_RUN;
  for (let run = 1; run <= runs; run++) {
    await client.run(
      space,
      session.sessionId,
      `What does notes/chapter-${run % NOTES}.md say about photosynthesis? Run ${run}.`,
    );
    if (run % 50 === 0) log(`page: ${run}/${runs} runs`);
  }
  const { items } = await client.client.request('session.history', {
    space,
    sessionId: session.sessionId,
  });
  return { sessionId: session.sessionId, items: items.length, marker: `Run ${runs}.` };
}

/**
 * Opens the page at the session in a fresh browser context (no cache) and returns the time from
 * navigation start until the newest message's text is in the page and painted, with what the
 * page then holds.
 */
async function showSession(browser, url, marker) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const transferred = new Map();
    page.on('response', async (response) => {
      const name = new URL(response.url()).pathname.slice(1);
      if (name !== 'app.js' && name !== 'styles.css' && !/^chunks\/chunk-/u.test(name)) return;
      const length = Number(response.headers()['content-length'] ?? Number.NaN);
      transferred.set(name, { length, encoding: response.headers()['content-encoding'] ?? '' });
    });
    // bench/profile.mjs-style look at the page's own CPU time: REPA_BENCH_PAGE_PROFILE=<file>.
    const profileTo = process.env.REPA_BENCH_PAGE_PROFILE;
    const cdp = profileTo ? await page.createCDPSession() : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    // When the page asks for the history (its first `session.history` frame): rendering starts.
    await page.evaluateOnNewDocument(() => {
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (
          window.__historyAskedMs === undefined &&
          typeof data === 'string' &&
          data.includes('"session.history"')
        ) {
          window.__historyAskedMs = performance.now();
        }
        return send.call(this, data);
      };
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const shownMs = await page.evaluate(
      (text) =>
        new Promise((resolve) => {
          const check = () => {
            if (document.body.textContent?.includes(text)) {
              // Two frames: the one that lays the history out and the one that paints it.
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
            } else requestAnimationFrame(check);
          };
          check();
        }),
      marker,
    );
    const held = await page.evaluate(() => ({
      nodes: document.getElementsByTagName('*').length,
      chars: document.body.textContent?.length ?? 0,
      askedMs: window.__historyAskedMs,
      connectedMs: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd,
    }));
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    const { JSHeapUsedSize } = await page.metrics();
    return { shownMs, ...held, heapMiB: JSHeapUsedSize / 2 ** 20, transferred };
  } finally {
    await context.close();
  }
}

/**
 * Opens the page at the space in a fresh browser context (no cache: pdf.js and its worker load
 * too), then clicks the long PDF in the documents tree and returns the time until its first page
 * is drawn, with how many pages were drawn by then.
 */
async function openLongPdf(browser, url) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const link = 'a.file-link[data-reader-path="manual.pdf"]';
    await page.waitForSelector(link, { visible: true, timeout: 30_000 });
    return await page.$eval(
      link,
      (node) =>
        new Promise((resolve) => {
          const started = performance.now();
          node.click();
          const check = () => {
            if (document.querySelector('.pdf-page[data-page="1"][data-rendered]')) {
              resolve({
                ms: performance.now() - started,
                drawn: document.querySelectorAll('.pdf-page[data-rendered]').length,
              });
            } else requestAnimationFrame(check);
          };
          check();
        }),
    );
  } finally {
    await context.close();
  }
}

/** Runs the page benchmark and returns its rows. */
export async function page({ scale = 1 } = {}) {
  const metric = metricRows('page');
  if (!existsSync(join(WEB_DIST, 'app.js'))) {
    return [metric('the page', Number.NaN, 'KB', null, { note: 'skipped: apps/web is not built' })];
  }
  const assets = builtAssets();
  const gzip = assets.reduce((sum, asset) => sum + asset.gzip, 0) / 1000;
  const rows = [
    metric('JavaScript + CSS, gzip (apps/web/dist, level 9)', gzip, 'KB', TARGETS.transfer, {
      samples: 1,
      note: assets
        .map(
          (a) =>
            `${a.name} ${(a.raw / 1000).toFixed(0)} KB raw, ${(a.gzip / 1000).toFixed(1)} KB gzip`,
        )
        .join('; '),
    }),
  ];
  if (!existsSync(CHROMIUM)) {
    rows.push(
      metric('1,000-message session shown', Number.NaN, 'ms', null, {
        note: `skipped: no Chromium at ${CHROMIUM}`,
      }),
    );
    return rows;
  }
  const base = mkdtempSync(join(tmpdir(), 'repa-bench-page-'));
  const space = join(base, 'space');
  mkdirSync(join(space, 'notes'), { recursive: true });
  for (let index = 0; index < NOTES; index++) {
    const lines = [`# Chapter ${index}`, ''];
    for (let line = 0; line < 12; line++) {
      lines.push(
        `Paragraph ${line}: photosynthesis in chapter ${index} turns light into **sugar**.`,
      );
    }
    writeFileSync(join(space, 'notes', `chapter-${index}.md`), `${lines.join('\n')}\n`);
  }
  writeFileSync(
    join(space, 'manual.pdf'),
    makePdf(
      Array.from({ length: PDF_PAGES }, (_, page) => ({
        lines: Array.from({ length: 40 }, (_, line) => `Manual page ${page + 1}, line ${line + 1}`),
      })),
    ),
  );
  const appDirectory = join(base, 'app');
  const agentDir = join(base, 'agent');
  const daemon = await startDaemon(appDirectory, agentDir);
  const client = trackingClient(daemon.socketPath);
  let browser;
  try {
    await client.client.request('space.open', { root: space });
    log(
      `page: making a ${MESSAGES}-message session (${MESSAGES / MESSAGES_PER_RUN} runs on repa-offline)`,
    );
    const made = performance.now();
    const session = await longSession(client, space);
    const makeSeconds = (performance.now() - made) / 1000;
    const address = await webAddress(appDirectory, agentDir, space);
    const url = `${address.split('#')[0]}#space=${encodeURIComponent(space)}&session=${encodeURIComponent(session.sessionId)}`;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const samples = [];
    const count = Math.max(3, Math.round(7 * scale));
    await showSession(browser, url, session.marker); // warm-up: the daemon's first history read
    for (let index = 0; index < count; index++) {
      samples.push(await showSession(browser, url, session.marker));
    }
    // The daemon's part: the same history request from a client on its socket.
    const historyMs = [];
    for (let index = 0; index < 5; index++) {
      const started = performance.now();
      await client.client.request('session.history', { space, sessionId: session.sessionId });
      historyMs.push(performance.now() - started);
    }
    historyMs.sort((a, b) => a - b);
    const pdfOpens = [];
    for (let index = 0; index < Math.max(3, Math.round(5 * scale)); index++) {
      pdfOpens.push(
        await openLongPdf(browser, `${address.split('#')[0]}#space=${encodeURIComponent(space)}`),
      );
    }
    const pdfTimes = pdfOpens.map((open) => open.ms).sort((a, b) => a - b);
    const times = samples.map((sample) => sample.shownMs).sort((a, b) => a - b);
    const renders = samples.map((sample) => sample.shownMs - sample.askedMs).sort((a, b) => a - b);
    const boots = samples.map((sample) => sample.connectedMs).sort((a, b) => a - b);
    const last = samples.at(-1);
    const sent = [...last.transferred.entries()]
      .map(
        ([name, t]) =>
          `${name} ${(t.length / 1000).toFixed(1)} KB${t.encoding ? ` ${t.encoding}` : ' uncompressed'}`,
      )
      .join('; ');
    rows.push(
      metric(
        'JavaScript + CSS as the daemon sends them (diagnostic: content-length, and its encoding)',
        [...last.transferred.values()].reduce((sum, t) => sum + t.length, 0) / 1000,
        'KB',
        null,
        { samples: 1, note: sent },
      ),
      metric(
        `a ${session.items}-item session history (${MESSAGES} messages) rendered: the page's history request → newest message painted`,
        quantile(renders, 0.5),
        'ms',
        TARGETS.render,
        {
          samples: renders.length,
          p95: quantile(renders, 0.95),
          note: `min ${renders[0].toFixed(0)} ms; the daemon's reply, its parsing, the turns' Markdown, layout and paint`,
        },
      ),
      metric(
        `the same session shown: navigation start → newest message painted, fresh browser context (diagnostic: with the page's start)`,
        quantile(times, 0.5),
        'ms',
        null,
        {
          samples: times.length,
          p95: quantile(times, 0.95),
          note: `min ${times[0].toFixed(0)} ms; the page's script loaded and run (DOMContentLoaded) at ${quantile(boots, 0.5).toFixed(0)} ms; session.history alone over the socket ${quantile(historyMs, 0.5).toFixed(0)} ms (median of 5); then ${last.nodes} elements, ${(last.chars / 1000).toFixed(0)}k characters of text, JS heap ${last.heapMiB.toFixed(1)} MiB; session made by ${MESSAGES / MESSAGES_PER_RUN} runs in ${makeSeconds.toFixed(0)} s`,
        },
      ),
    );
    rows.push(
      metric(
        `a ${PDF_PAGES}-page PDF in the reader: its link clicked → first page drawn, fresh browser context`,
        quantile(pdfTimes, 0.5),
        'ms',
        TARGETS.pdf,
        {
          samples: pdfTimes.length,
          p95: quantile(pdfTimes, 0.95),
          note: `min ${pdfTimes[0].toFixed(0)} ms; pdf.js and its worker loaded, the bytes fetched, every page sized; ${Math.max(...pdfOpens.map((open) => open.drawn))} pages drawn by then`,
        },
      ),
    );
    return rows;
  } finally {
    await browser?.close().catch(() => undefined);
    await client.client.close().catch(() => undefined);
    await stopDaemon(daemon);
    rmSync(base, { recursive: true, force: true });
  }
}
