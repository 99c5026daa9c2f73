/// <reference lib="dom" />
import { existsSync, rmSync } from 'node:fs';
import { type CliSandbox, createSandbox, repaJson } from '@repa/test-kit';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect } from 'vitest';

// What the browser test files share: one daemon on the offline responder, `repa web --no-open`, and
// a browser context of its own per file in one headless Chromium per test worker (the workers keep
// their modules between files: a launch costs some 1.5 s of CPU, a context next to nothing).

/** Debian's Chromium (or `REPA_CHROMIUM`). */
export const CHROMIUM = process.env.REPA_CHROMIUM ?? '/usr/bin/chromium';
/** The longest one step of a browser test may wait. */
export const STEP_MS = 20_000;

/** A daemon serving the page, and a browser to look at it. */
export interface WebRig {
  /** The file's own browser context: cookies, storage and cache of its own, as a fresh browser. */
  browser: BrowserContext;
  /** A page at 1280 × 900, not yet navigated. */
  page: Page;
  /** The address `repa web --no-open --space <space>` printed (carries the secret once). */
  url: string;
  /** Closes the browser and stops the daemon. */
  close(): Promise<void>;
}

let launched: Promise<Browser> | undefined;

/**
 * This worker's Chromium, launched on first use; Puppeteer stops it when the worker exits. A
 * browser that crashed is launched again.
 */
function chromium(): Promise<Browser> {
  if (launched === undefined) {
    launched = puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Root in CI has no user namespace for Chromium's sandbox; the page is our own app.
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const current = launched;
    void current.then(
      (browser) =>
        browser.once('disconnected', () => {
          if (launched === current) launched = undefined;
        }),
      () => {
        if (launched === current) launched = undefined;
      },
    );
  }
  return launched;
}

/**
 * Starts the sandbox's daemon (`--model repa-offline` unless `model` is false: then the model Pi
 * chooses from its credentials), asks `repa web` for the address, opens a browser context of its own in the worker's Chromium.
 */
export async function startWebRig(
  sandbox: CliSandbox,
  { model = 'repa-offline' }: { model?: string | false } = {},
): Promise<WebRig> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it (apt-get install chromium) or set REPA_CHROMIUM to a Chromium binary.`,
    );
  }
  const start = await repaJson(sandbox, ['daemon', 'start', ...(model ? ['--model', model] : [])]);
  expect(start.code, start.stderr).toBe(0);
  const web = await repaJson<{ url: string; opened: boolean }>(sandbox, [
    'web',
    '--no-open',
    '--space',
    sandbox.space,
  ]);
  expect(web.code, web.stderr).toBe(0);
  expect(web.json.opened).toBe(false);
  const browser = await (await chromium()).createBrowserContext();
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  return {
    browser,
    page,
    url: web.json.url,
    async close() {
      await browser.close();
      await repaJson(sandbox, ['daemon', 'stop']);
    },
  };
}

/** A browser test file's sandbox, and its rig and page once its `beforeAll` ran. */
export interface WebFile {
  readonly sandbox: CliSandbox;
  /** Where the file's pictures go (`REPA_SHOT_DIR` keeps them; else the sandbox). */
  readonly shots: string;
  readonly rig: WebRig;
  readonly page: Page;
}

/**
 * A browser test file's set-up, as hooks: before its tests `prepare` (files, model endpoints), the
 * rig (`model` as in {@link startWebRig}) and, unless `open` is false, the page opened at its
 * address; after them the rig closed, then `cleanup` (what `prepare` started), then the sandbox removed.
 */
export function useWebRig({
  model,
  prepare,
  cleanup,
  open = true,
}: {
  model?: string | false;
  prepare?: (sandbox: CliSandbox) => unknown;
  cleanup?: () => unknown;
  open?: boolean;
} = {}): WebFile {
  const sandbox = createSandbox();
  let rig: WebRig | undefined;
  let setUp: Promise<void> | undefined;
  beforeAll(() => {
    setUp = (async () => {
      await prepare?.(sandbox);
      rig = await startWebRig(sandbox, { model });
      if (open) await openPage(rig.page, rig.url);
    })();
    return setUp;
  });
  afterAll(async () => {
    // A set-up that timed out goes on running: undo what it started only once it has ended (else
    // its daemon outlives the run, and its next `repa` re-creates the removed sandbox).
    await setUp?.catch(() => {});
    if (rig) await rig.close();
    else await repaJson(sandbox, ['daemon', 'stop']);
    await cleanup?.();
    rmSync(sandbox.root, { recursive: true, force: true });
  });
  const started = () => {
    if (rig === undefined) throw new Error('the web rig starts in beforeAll');
    return rig;
  };
  return {
    sandbox,
    shots: process.env.REPA_SHOT_DIR ?? sandbox.root,
    get rig() {
      return started();
    },
    get page() {
      return started().page;
    },
  };
}

/** Opens the address and waits until the page is connected with its message box shown. */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('.connection-open', { timeout: STEP_MS });
  await page.waitForSelector('#message', { timeout: STEP_MS });
}

/** Types `text` in the message box, sends it and waits until a new turn is shown. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const before = await page.$$eval('.live .turn', (turns) => turns.length);
  await page.focus('#message');
  await page.keyboard.type(text);
  await page.click('.composer button[type="submit"]');
  await page.waitForFunction(
    (count) => document.querySelectorAll('.live .turn').length > count,
    { timeout: STEP_MS, polling: 100 },
    before,
  );
}

/** Waits until the last live turn's `data-status` is `status`. */
export async function lastTurnReaches(page: Page, status: string): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      document.querySelector('.live .turn:last-child')?.getAttribute('data-status') === wanted,
    { timeout: STEP_MS, polling: 100 },
    status,
  );
}

/** `selector`'s text as it shows (innerText: hidden parts left out), its spaces collapsed. */
export function shownText(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (node) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, hidden parts left out
    (node as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
  );
}

/** Waits until `selector`'s text (innerText) matches `pattern`. */
export async function waitShownText(page: Page, selector: string, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    (wanted, source, flags) =>
      new RegExp(source, flags).test(
        // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, hidden parts left out
        (document.querySelector(wanted) as HTMLElement | null)?.innerText ?? '',
      ),
    // Polled on a timer: a frame-driven wait stalls while the page paints nothing new.
    { timeout: STEP_MS, polling: 100 },
    selector,
    pattern.source,
    pattern.flags,
  );
}
