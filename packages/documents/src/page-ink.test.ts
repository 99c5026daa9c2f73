import { makeScannedPdf } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { recognise } from './ocr-text.ts';
import { openPageRenderer } from './page-image.ts';
import { pageInk } from './page-ink.ts';

const LINES = ['Osmosis moves water', 'across a membrane', 'from low to high solute'];

/** The width and height a PGM's header gives. */
const sizeOf = (pgm: Uint8Array) =>
  /^P5\n(\d+) (\d+)\n255\n/u.exec(Buffer.from(pgm.subarray(0, 32)).toString('latin1'))?.slice(1);

describe('a scanned page given to OCR as its own image (design R120)', () => {
  it('reads the same text as the page drawn at 200 dpi, from the image pixels as they are', async () => {
    const bytes = await makeScannedPdf([{ lines: LINES }]);
    const pdfjs = await import('unpdf/pdfjs');
    const task = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
    const ink = await pageInk(pdfjs, await (await task.promise).getPage(1));
    await task.destroy();
    if (!('scan' in ink))
      throw new Error(`the page was not taken as a scan: ${JSON.stringify(ink)}`);
    const renderer = await openPageRenderer(new Uint8Array(bytes));
    const drawn = await renderer.forOcr(1);
    await renderer.close();
    // The fixture's image is 1000 px wide, placed so that 200 dpi gives back its pixels.
    expect(sizeOf(ink.scan)).toEqual(sizeOf(drawn));
    expect(sizeOf(ink.scan)?.[0]).toBe('1000');
    const fromScan = await recognise(ink.scan, ['eng'], 60_000);
    const fromDrawing = await recognise(drawn, ['eng'], 60_000);
    expect(fromScan.text).toBe(LINES.join('\n'));
    expect(fromScan.text).toBe(fromDrawing.text);
  });
});

describe('a page that only looks like one image', () => {
  /** A stand-in page whose operator list is `ops` around one 1000 × 1400 gray image. */
  const pageOf = (ops: [number, unknown[]][]) =>
    ({
      rotate: 0,
      view: [0, 0, 360, 504],
      getOperatorList: async () => ({
        fnArray: ops.map(([op]) => op),
        argsArray: ops.map(([, args]) => args),
      }),
      objs: {
        get: (_id: string, resolve: (image: unknown) => void) =>
          resolve({ width: 1000, height: 1400, kind: 2, data: new Uint8Array(1000 * 1400 * 3) }),
      },
      commonObjs: { get: () => undefined },
    }) as unknown as Parameters<typeof pageInk>[1];

  it('is drawn when its image is an annotation appearance or in an optional-content layer', async () => {
    const pdfjs = await import('unpdf/pdfjs');
    const { OPS } = pdfjs;
    const image: [number, unknown[]][] = [
      [OPS.save, []],
      [OPS.transform, [360, 0, 0, 504, 0, 0]],
      [OPS.paintImageXObject, ['img_p0_1', 1000, 1400]],
      [OPS.restore, []],
    ];
    // The image alone is a scan (the stand-in is read as the fixture's scans are).
    expect('scan' in (await pageInk(pdfjs, pageOf(image)))).toBe(true);
    const annotation: [number, unknown[]][] = [
      [OPS.beginAnnotation, ['annot-1', [0, 0, 100, 100], [1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]]],
      ...image,
      [OPS.endAnnotation, []],
    ];
    expect(await pageInk(pdfjs, pageOf(annotation))).toEqual({ draw: true });
    const layer: [number, unknown[]][] = [
      [OPS.beginMarkedContentProps, ['OC', { id: 'oc1' }]],
      ...image,
      [OPS.endMarkedContent, []],
    ];
    expect(await pageInk(pdfjs, pageOf(layer))).toEqual({ draw: true });
  });
});
