import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeScannedPdf } from '@repa/fixtures';
import { jsonLines, repa } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// A scanned handout end to end (design R120, R122), on a real daemon with the offline model: an
// image of text wrapped in a PDF with no text layer is read by OCR, answered from with a page
// citation that verifies, its progress shown; a second run reads the cached text.
const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: async () => {
    const scan = await makeScannedPdf([{ lines: ['Osmosis moves water', 'across a membrane'] }]);
    writeFileSync(join(sandbox.space, 'scan.pdf'), scan);
  },
});

/** The events and the final record of a `repa run --json`. */
function runOf(stdout: string) {
  const lines = jsonLines(stdout);
  const events = lines
    .filter((line) => line.kind === 'event')
    .map((line) => line.event as Record<string, unknown>);
  const finished = lines.find((line) => line.kind === 'finished')?.run as
    | { output?: string; citations?: unknown }
    | undefined;
  return { events, finished };
}

describe('repa run on a scanned PDF', () => {
  it('answers with the recognised words and a page citation that verifies, showing its progress', async () => {
    const run = await repa(sandbox, ['run', 'What does scan.pdf say?']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'From scan.pdf (page 1): Osmosis moves water [scan.pdf#p1:1 "Osmosis moves water"]',
    );
    expect(run.stdout).toMatch(/^\[progress\] read scan\.pdf: 1 of 1 page$/mu);
    expect(run.stdout).toMatch(/^\[1\] scan\.pdf p\. 1, line 1 ✓$/mu);

    // The second read is the cache's: no extraction, so no progress and no second OCR.
    const again = await repa(sandbox, ['run', '--json', 'What does scan.pdf say?']);
    expect(again.code, again.stderr).toBe(0);
    const { events, finished } = runOf(again.stdout);
    expect(events.filter((event) => event.type === 'tool-progress')).toEqual([]);
    expect(finished?.output).toContain('Osmosis moves water');
    expect(finished?.citations).toMatchObject([
      { page: 1, startLine: 1, status: 'verified' },
      { page: 1, startLine: 2, status: 'verified' },
    ]);
  }, 120_000);
});
