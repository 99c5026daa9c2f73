import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { makePdf, makeScannedPdf, makeTextImage } from '@repa/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from './index.js';

// A `tesseract` first on the PATH that writes down each recognition, then runs the real one.
const dir = mkdtempSync(join(tmpdir(), 'repa-ocr-runs-'));
const calls = join(dir, 'calls');
const PATH = process.env.PATH;
/** Its own heap bound: the extraction processes of these reads start here, with this PATH. */
const limits = { maxHeapMb: 384 };

/** The recognitions run so far (the engine's `--version` and `--list-langs` left out). */
const recognitions = () =>
  readFileSync(calls, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('stdin '));

beforeAll(() => {
  const real = spawnSync('sh', ['-c', 'command -v tesseract'], { encoding: 'utf8' }).stdout.trim();
  const shim = join(dir, 'tesseract');
  writeFileSync(shim, `#!/bin/sh\necho "$*" >> ${JSON.stringify(calls)}\nexec ${real} "$@"\n`);
  chmodSync(shim, 0o755);
  writeFileSync(calls, '');
  process.env.PATH = `${dir}${delimiter}${PATH}`;
});
afterAll(() => {
  process.env.PATH = PATH;
  rmSync(dir, { recursive: true, force: true });
});

describe('when OCR runs (design R120)', () => {
  it('runs none for a blank page of a text PDF, and one for a scanned page', async () => {
    const notes = makePdf([{ lines: ['Osmosis moves water'] }, { lines: [] }, { lines: ['End'] }]);
    const document = await readDocument('pdf', notes, { limits });
    expect(document.text.split('\n')).toEqual([
      '[Page 1 of 3]',
      'Osmosis moves water',
      '',
      '[Page 2 of 3: blank (nothing is drawn on it)]',
      '',
      '[Page 3 of 3]',
      'End',
    ]);
    expect(recognitions()).toEqual([]);
    const scan = await readDocument('pdf', await makeScannedPdf([{ lines: ['Osmosis'] }]), {
      limits,
    });
    expect(scan.parts[0]?.recognised).toBeDefined();
    expect(recognitions()).toHaveLength(1);
  });

  it('runs none with documents.ocrLanguages [], and says OCR is off for an image', async () => {
    writeFileSync(calls, '');
    const scan = await readDocument('pdf', await makeScannedPdf([{ lines: ['Osmosis'] }]), {
      limits,
      ocrLanguages: [],
    });
    expect(scan.text).toBe('[Page 1 of 1: no text layer (a scanned or image-only page)]');
    await expect(
      readDocument('image', await makeTextImage(['Osmosis']), { limits, ocrLanguages: [] }),
    ).rejects.toMatchObject({
      code: 'ocr_unavailable',
      message:
        'The document could not be read: OCR is turned off (`documents.ocrLanguages` is `[]`).',
      fix: expect.stringContaining('`documents.ocrLanguages`'),
    });
    expect(recognitions()).toEqual([]);
  });
});
