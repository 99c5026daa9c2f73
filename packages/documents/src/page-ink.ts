/**
 * What a PDF page without a text layer has drawn on it, read from PDF.js's operator list (spec
 * R120): nothing (a blank page, which needs no OCR), one upright image (a scan: its own decoded
 * pixels go to OCR, with no page drawn and no image encoded), or anything else (the page is drawn).
 * Contract: this file runs under Node's type stripping in the worker: `.ts` imports, no enums.
 */

/** The resolution a page is drawn at for OCR (Tesseract reads text of 10 pt and up well at it). */
export const OCR_DPI = 200;
/** The longest side of a page image for OCR, in pixels (a poster-sized page is drawn smaller). */
export const MAX_SIDE = 5000;
/** The lowest resolution of a scan given to OCR as it is (below it the page is drawn at 200 dpi). */
const MIN_SCAN_DPI = 150;

type Pdfjs = typeof import('unpdf/pdfjs');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<Pdfjs['getDocument']>['promise']>['getPage']>>;
type Matrix = [number, number, number, number, number, number];

/** A page's ink: none, one scanned image (as PGM bytes), or something to draw. */
export type PageInk = { blank: true } | { scan: Uint8Array } | { draw: true };

/** PDF.js's decoded image (`ImageKind`: 1 one bit a pixel, 2 RGB, 3 RGBA). */
interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** The operators that put nothing on the page (state, paths not yet painted, marks, groups). */
function inkless(OPS: Pdfjs['OPS']): Set<number> {
  return new Set([
    OPS.dependency,
    OPS.setLineWidth,
    OPS.setLineCap,
    OPS.setLineJoin,
    OPS.setMiterLimit,
    OPS.setDash,
    OPS.setRenderingIntent,
    OPS.setFlatness,
    OPS.setGState,
    OPS.save,
    OPS.restore,
    OPS.transform,
    OPS.moveTo,
    OPS.lineTo,
    OPS.curveTo,
    OPS.curveTo2,
    OPS.curveTo3,
    OPS.closePath,
    OPS.rectangle,
    OPS.endPath,
    OPS.clip,
    OPS.eoClip,
    OPS.beginText,
    OPS.endText,
    OPS.setCharSpacing,
    OPS.setWordSpacing,
    OPS.setHScale,
    OPS.setLeading,
    OPS.setFont,
    OPS.setTextRenderingMode,
    OPS.setTextRise,
    OPS.moveText,
    OPS.setLeadingMoveText,
    OPS.setTextMatrix,
    OPS.nextLine,
    OPS.setCharWidth,
    OPS.setCharWidthAndBounds,
    OPS.setStrokeColorSpace,
    OPS.setFillColorSpace,
    OPS.setStrokeColor,
    OPS.setStrokeColorN,
    OPS.setFillColor,
    OPS.setFillColorN,
    OPS.setStrokeGray,
    OPS.setFillGray,
    OPS.setStrokeRGBColor,
    OPS.setFillRGBColor,
    OPS.setStrokeCMYKColor,
    OPS.setFillCMYKColor,
    OPS.setStrokeTransparent,
    OPS.setFillTransparent,
    OPS.markPoint,
    OPS.markPointProps,
    OPS.beginMarkedContent,
    OPS.beginMarkedContentProps,
    OPS.endMarkedContent,
    OPS.beginCompat,
    OPS.endCompat,
    OPS.paintFormXObjectBegin,
    OPS.paintFormXObjectEnd,
    OPS.beginGroup,
    OPS.endGroup,
    OPS.beginAnnotation,
    OPS.endAnnotation,
  ]);
}

const times = (m: Matrix, n: readonly number[]): Matrix => {
  const [a, b, c, d, e, f] = n as Matrix;
  return [
    a * m[0] + b * m[2],
    a * m[1] + b * m[3],
    c * m[0] + d * m[2],
    c * m[1] + d * m[3],
    e * m[0] + f * m[2] + m[4],
    e * m[1] + f * m[3] + m[5],
  ];
};

/**
 * What `page` has drawn on it, read from its operator list: `blank` when no operator paints,
 * `scan` when the only thing painted is one image, upright, inside the page, unclipped, of at least
 * {@link MIN_SCAN_DPI} (its pixels in 8-bit gray as PGM, shrunk by a whole factor towards
 * {@link OCR_DPI}), else `draw`. Anything it cannot vouch for is `draw`, as every page was before.
 */
export async function pageInk(pdfjs: Pdfjs, page: PdfPage): Promise<PageInk> {
  const { OPS } = pdfjs;
  const harmless = inkless(OPS);
  let list: Awaited<ReturnType<PdfPage['getOperatorList']>>;
  try {
    list = await page.getOperatorList();
  } catch {
    return { draw: true };
  }
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const saved: Matrix[] = [];
  let image: { source: unknown; ctm: Matrix } | undefined;
  let plain = true;
  for (const [at, op] of list.fnArray.entries()) {
    const args = list.argsArray[at] as unknown[];
    if (op === OPS.save) saved.push(ctm);
    else if (op === OPS.restore) ctm = saved.pop() ?? ctm;
    else if (op === OPS.transform) ctm = times(ctm, args as number[]);
    else if (op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject) {
      plain &&= image === undefined;
      image = { source: args[0], ctm };
      continue;
    } else if (op === OPS.constructPath) {
      if (args[0] !== OPS.endPath) return { draw: true };
    } else if (!harmless.has(op)) return { draw: true };
    // What may hide or blend part of an image: the image alone may not be what the page shows.
    const softMask = () =>
      (args[0] as [string, unknown][]).some(([key, on]) => key === 'SMask' && on);
    if (op === OPS.clip || op === OPS.eoClip || op === OPS.paintFormXObjectBegin) plain = false;
    // An annotation's appearance is placed by its own matrix and clipped to its rectangle, and an
    // optional-content layer may be hidden: drawing alone says what the page shows.
    if (op === OPS.beginAnnotation) plain = false;
    if (op === OPS.beginMarkedContentProps && args[0] === 'OC') plain = false;
    if (op === OPS.beginGroup || (op === OPS.setGState && softMask())) plain = false;
  }
  if (image === undefined) return { blank: true };
  if (!plain || page.rotate % 360 !== 0) return { draw: true };
  return scanOf(page, image.source, image.ctm);
}

/** The PGM of the page's one image placed by `ctm`, or `draw` when it is not a plain scan. */
async function scanOf(page: PdfPage, source: unknown, ctm: Matrix): Promise<PageInk> {
  const [a, b, c, d, e, f] = ctm;
  const [left, bottom, right, top] = page.view as [number, number, number, number];
  const slack = 1;
  const upright = a > 0 && d > 0 && Math.abs(b) < a * 1e-3 && Math.abs(c) < d * 1e-3;
  const inside =
    e >= left - slack && f >= bottom - slack && e + a <= right + slack && f + d <= top + slack;
  if (!upright || !inside) return { draw: true };
  const decoded = (
    typeof source === 'string'
      ? await new Promise((resolve) =>
          (source.startsWith('g_') ? page.commonObjs : page.objs).get(source, resolve),
        )
      : source
  ) as DecodedImage | null;
  if (decoded?.data === undefined || ![1, 2, 3].includes(decoded.kind ?? 0)) return { draw: true };
  const dpi = Math.min(decoded.width / (a / 72), decoded.height / (d / 72));
  if (dpi < MIN_SCAN_DPI) return { draw: true };
  const shrink = Math.max(1, Math.floor(dpi / OCR_DPI));
  const width = Math.floor(decoded.width / shrink);
  const height = Math.floor(decoded.height / shrink);
  if (Math.max(width, height) > MAX_SIDE || width === 0 || height === 0) return { draw: true };
  return { scan: grayPgm(decoded as Required<DecodedImage>, shrink) };
}

/** An 8-bit gray PGM (P5) of `width` × `height` pixels, its gray levels filled by `fill`. */
export function pgm(
  width: number,
  height: number,
  fill: (gray: Uint8Array, offset: number) => void,
): Uint8Array {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const bytes = Buffer.allocUnsafe(header.length + width * height);
  header.copy(bytes);
  fill(bytes, header.length);
  return bytes;
}

/** The gray level of red, green and blue (ITU-R BT.601 weights, in integers). */
export const grayOf = (red: number, green: number, blue: number) =>
  (red * 77 + green * 150 + blue * 29) >> 8;

/** A decoded image in gray, each `shrink` × `shrink` square of pixels averaged into one. */
function grayPgm(image: Required<DecodedImage>, shrink: number): Uint8Array {
  const { width, height, kind, data } = image;
  const rowBytes = kind === 1 ? (width + 7) >> 3 : width * (kind === 2 ? 3 : 4);
  /** The gray of pixel (x, y): alpha over white, a set bit white for one-bit images. */
  const at = (x: number, y: number): number => {
    if (kind === 1) return (data[y * rowBytes + (x >> 3)] ?? 0) & (128 >> (x & 7)) ? 255 : 0;
    const from = y * rowBytes + x * (kind === 2 ? 3 : 4);
    const gray = grayOf(data[from] ?? 255, data[from + 1] ?? 255, data[from + 2] ?? 255);
    if (kind === 2) return gray;
    const alpha = data[from + 3] ?? 255;
    return (gray * alpha + 255 * (255 - alpha) + 127) / 255;
  };
  const outWidth = Math.floor(width / shrink);
  const outHeight = Math.floor(height / shrink);
  const area = shrink * shrink;
  return pgm(outWidth, outHeight, (gray, offset) => {
    let to = offset;
    for (let y = 0; y < outHeight; y++) {
      for (let x = 0; x < outWidth; x++) {
        let sum = 0;
        for (let dy = 0; dy < shrink; dy++) {
          for (let dx = 0; dx < shrink; dx++) sum += at(x * shrink + dx, y * shrink + dy);
        }
        gray[to++] = Math.round(sum / area);
      }
    }
  });
}
