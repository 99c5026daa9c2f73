import {
  type AgentToolResult,
  createReadToolDefinition,
  defineTool,
  type ReadOperations,
  type ReadToolDetails,
  type ToolDefinition,
} from '@earendil-works/pi-coding-agent';
import { contentKindOf, type DocumentText, selectParts, unsupportedContent } from '@repa/documents';
import { RepaError } from '@repa/protocol';
import { Type } from 'typebox';
import { documentText } from '../documents/index.js';
import type { ContentSnapshot } from '../space/index.js';
import {
  AS_PARAMETER,
  imageText,
  modelSees,
  type ScannedFacts,
  scannedPages,
} from './scanned-pages.js';
import { sharedParameters } from './shared-parameters.js';
import { readSkillFile } from './skill-files.js';
import { readTextWindow } from './text-window.js';
import { inToolCall, runToolCall, type ToolCallState } from './tool-call-context.js';
import { cancelledCall, toolError } from './tool-errors.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of a `read` result: Pi's truncation facts plus what was read. */
export interface ContentReadDetails extends ReadToolDetails {
  /** Path relative to the space root (absolute for an outside material). */
  target: string;
  /** The object's identity. */
  identity: string;
  /** The version of the whole file (also after a partial read, spec R64). */
  version: string;
  /** True when the model saw only part of the file. */
  partial: boolean;
  /** True for an outside material or an offered skill's file. */
  outside: boolean;
  /** True for an offered skill's file (read-only, untracked; `identity` is the path given). */
  skill?: boolean;
  /** For a document read as text (spec R60): its format, its pages (or chapters) and those shown. */
  document?: {
    format: DocumentText['format'];
    unit?: DocumentText['unit'];
    parts: number;
    shown?: { first: number; last: number };
  } & ScannedFacts;
  /**
   * For text: the number (from 1) of the first line the result's text begins with. For a
   * document, lines count in its marked text, or in the text of the pages shown when `pages` chose
   * some (`document.shown`).
   */
  firstLine?: number;
  /** For text: how many of the text's lines the result's text begins with. */
  lineCount?: number;
  /** For text: the text's line count (Pi's count: a final newline ends an empty last line). */
  totalLines?: number;
}

/** The path parameter description shared by the content tools. */
export const PATH_DESCRIPTION =
  'Path relative to the space root, or a repa:document/<id> or repa:material/<id> identity';

type ReadResult = AgentToolResult<ReadToolDetails | undefined>;
type TextShown = { firstLine: number; lineCount: number };

// What the model needs beyond Pi's description (the path parameter names the identities; the
// skill catalog names the skill files): the refusals, and how documents are shown.
const ADDRESSING = ' The .repa folder is not accessible.';

const DOCUMENTS =
  ' PDF, DOCX, EPUB and HTML documents are read-only and read as text, each page (or chapter) after a line such as [Page 3 of 12]; a scanned page is read by OCR (its line says so), and shown as an image too to a model that can see. Other binary files are refused.';

const BYTE_OFFSET_DESCRIPTION =
  'For a line longer than the output limit: the byte of the line at offset to start from (1-indexed), as the notice after its first piece says';

const PAGES_DESCRIPTION =
  'PDF pages or EPUB chapters to show, e.g. "7", "3-5" or "12-"; offset and limit then count lines within them';

// The image types Pi's read tool sends as attachments, recognised by their first bytes.
function imageMimeType(bytes: Buffer): string | undefined {
  const ascii = (offset: number, text: string) =>
    bytes.toString('latin1', offset, offset + text.length) === text;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff && bytes[3] !== 0xf7)
    return 'image/jpeg';
  if (ascii(0, '\x89PNG\r\n\x1a\n') && ascii(12, 'IHDR')) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'BM') && bytes.length >= 26) return 'image/bmp';
  return undefined;
}

function isPartial(
  totalLines: number,
  params: { offset?: number; limit?: number; byteOffset?: number },
  details: ReadToolDetails | undefined,
): boolean {
  const start = params.offset ? Math.max(0, params.offset - 1) : 0;
  if (start > 0 || (params.byteOffset ?? 0) > 1) return true;
  if (params.limit !== undefined && start + params.limit < totalLines) return true;
  return details?.truncation?.truncated === true;
}

/**
 * Pi's result for a document's text (spec R60): the pages asked for (all by default), then
 * `offset`/`limit` over their lines exactly as for a text file.
 */
async function readDocument(
  document: DocumentText,
  params: { path: string; offset?: number; limit?: number; byteOffset?: number; pages?: string },
): Promise<{
  result: ReadResult;
  totalLines: number;
  subset: boolean;
  pages?: { first: number; last: number };
  shown: TextShown;
}> {
  const selected = params.pages === undefined ? undefined : selectParts(document, params.pages);
  const text = selected?.text ?? document.text;
  const window = await readTextWindow(Buffer.from(text, 'utf8'), params.path, params);
  const whole =
    selected === undefined || (selected.first === 1 && selected.last === document.parts.length);
  return {
    result: { content: [{ type: 'text', text: window.text }], details: window.details },
    totalLines: window.totalLines,
    // A selection of some pages is a partial read whatever its lines.
    subset: !whole,
    // The lines are the whole text's, or (with `pages`) the selection's: its pages' marker lines
    // tell a citation's page lines apart (spec R60).
    shown: window.shown,
    ...(selected === undefined ? {} : { pages: { first: selected.first, last: selected.last } }),
  };
}

/** Pi's result for a text file, cut from the snapshot without decoding more than the window. */
async function readText(
  snapshot: ContentSnapshot,
  params: { path: string; offset?: number; limit?: number; byteOffset?: number },
  signal: AbortSignal | undefined,
): Promise<{ result: ReadResult; totalLines: number; shown: TextShown }> {
  const window = await readTextWindow(snapshot.bytes, params.path, params);
  if (signal?.aborted) throw new Error('Operation aborted');
  const { text, details, totalLines, shown } = window;
  return { result: { content: [{ type: 'text', text }], details }, totalLines, shown };
}

function noPages(shown: string): RepaError {
  return new RepaError('invalid_request', `${shown} has no pages: it is not a PDF or an EPUB.`, {
    fix: 'Leave out pages; use offset and limit (lines) instead.',
  });
}

/** Bytes from this size on are handed back to the system as soon as a call is done with them. */
const RELEASE_FROM = 1024 * 1024;

/**
 * Frees `bytes` now instead of at some later garbage collection, when they alone own their memory
 * (never a slice of Node's shared pool): a huge file's snapshot must not keep the daemon's
 * resident size up after the call.
 */
function freeNow(bytes: Buffer | undefined): void {
  if (bytes === undefined || bytes.length < RELEASE_FROM) return;
  const { buffer } = bytes;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength !== bytes.length) return;
  try {
    (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  } catch {
    // Not detachable (owned by something else): the garbage collector frees it.
  }
}

/**
 * Drops the snapshot of a finished read call (`signal`: its abort signal). The call read the snapshot
 * itself and nothing keeps its bytes (the observer copies the text it keeps), so a huge one is
 * freed at once; and a promise created during the call keeps the call's async context, and with
 * it `state`, alive after the call.
 */
function releaseReadCall(state: ToolCallState, signal: AbortSignal | undefined): void {
  // A cancelled call may still have Pi's image processing running on the bytes.
  if (signal?.aborted !== true) freeNow(state.snapshot?.bytes);
  delete state.snapshot;
}

/**
 * Pi's `read` tool with all I/O through the ContentStore: one snapshot per call, accepting paths
 * and `repa:` identities, recording what the model saw in the observer (spec R60, R64). Images go
 * through Pi's tool; text is cut to Pi's window without decoding the whole file.
 */
export function createContentReadTool(options: ContentToolsOptions): ToolDefinition {
  const { store, observer } = options;
  const snapshotOf = async (state: ToolCallState) => {
    if (state.snapshot === undefined) {
      const skill = await readSkillFile(options, state.address);
      state.skill = skill !== undefined;
      state.snapshot = skill ?? (await store.read(state.address));
    }
    return state.snapshot;
  };
  const operations: ReadOperations = {
    access: () => inToolCall(async (state) => void (await snapshotOf(state))),
    detectImageMimeType: () =>
      inToolCall(async (state) => imageMimeType((await snapshotOf(state)).bytes)),
    readFile: () => inToolCall(async (state) => (await snapshotOf(state)).bytes),
  };
  const base = createReadToolDefinition(store.root, {
    operations,
    autoResizeImages: options.autoResizeImages ?? true,
  });
  const { properties } = base.parameters;
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      path: Type.String({ description: PATH_DESCRIPTION }),
      offset: properties.offset,
      limit: properties.limit,
      byteOffset: Type.Optional(Type.Number({ description: BYTE_OFFSET_DESCRIPTION })),
      pages: Type.Optional(Type.String({ description: PAGES_DESCRIPTION })),
      as: AS_PARAMETER,
    }),
  );
  const tool: ToolDefinition<typeof parameters, ContentReadDetails> = {
    ...base,
    description: base.description + ADDRESSING + DOCUMENTS,
    parameters,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      if (signal?.aborted) throw toolError(cancelledCall());
      const state: ToolCallState = { address: params.path, operationId: '' };
      try {
        let read: {
          result: ReadResult;
          totalLines?: number;
          document?: DocumentText;
          subset?: boolean;
          /** The pages (or chapters) shown, when some were asked for. */
          pages?: { first: number; last: number };
          shown?: TextShown;
          scanned?: ScannedFacts;
        };
        const sees = modelSees(ctx?.model);
        try {
          read = await runToolCall(state, async () => {
            const snapshot = await inToolCall(snapshotOf);
            const image = imageMimeType(snapshot.bytes) !== undefined;
            // An image goes as it is to a model that sees; else as its text, by OCR (R120).
            if (image && !state.skill && (params.as === 'text' || !sees)) {
              const document = await imageText(snapshot, options, signal);
              const read = await readDocument(document, params);
              const [part] = document.parts;
              const note = part?.recognised
                ? `\n\n[Text recognised by OCR (${part.recognised.engine}), confidence ${part.recognised.confidence}%${sees ? '' : '; the model cannot see images'}]`
                : '';
              const [first] = read.result.content;
              if (first?.type === 'text') first.text += note;
              return { ...read, document };
            }
            if (image) {
              return { result: await base.execute(toolCallId, params, signal, undefined, ctx) };
            }
            const kind = state.skill ? undefined : contentKindOf(snapshot.bytes, snapshot.target);
            const shown = JSON.stringify(params.path);
            if (kind?.kind === 'unsupported') throw unsupportedContent(shown, kind.type);
            if (kind?.kind !== 'document') {
              if (params.pages !== undefined) throw noPages(shown);
              return readText(snapshot, params, signal);
            }
            const languages = options.ocrLanguages?.();
            const document = await documentText(
              store,
              { bytes: snapshot.bytes, version: snapshot.version, format: kind.format },
              shown,
              {
                ...(languages === undefined ? {} : { ocrLanguages: languages }),
                ...(signal === undefined ? {} : { signal }),
                // A first read of a long or scanned document tells its progress (R122).
                onProgress: (progress) =>
                  onUpdate?.({
                    content: [],
                    details: { progress: { ...progress, target: snapshot.target } },
                  } as never),
              },
            );
            if (signal?.aborted) throw new Error('Operation aborted');
            const read = await readDocument(document, params);
            const shownPages = read.pages ?? { first: 1, last: document.parts.length };
            const scanned = await scannedPages(snapshot, document, shownPages, {
              as: params.as,
              sees,
              signal,
            });
            const [first] = read.result.content;
            if (scanned.note && first?.type === 'text') first.text += `\n\n${scanned.note}`;
            read.result.content.push(...scanned.images);
            return { ...read, document, scanned: scanned.facts };
          });
        } catch (error) {
          throw toolError(error, state);
        }
        const { result } = read;
        const snapshot = state.snapshot;
        if (snapshot === undefined) throw toolError(new Error('The read produced no snapshot.'));
        // An image is shown whole.
        const partial =
          read.subset === true ||
          (read.totalLines !== undefined && isPartial(read.totalLines, params, result.details));
        // Contract: a skill's file is untracked (R54): no baseline, no change notices.
        if (!state.skill) {
          observer.recordRead(snapshot, {
            partial,
            ...(read.document === undefined ? {} : { document: read.document }),
          });
        }
        const { document } = read;
        return {
          content: result.content,
          details: {
            ...result.details,
            target: snapshot.target,
            identity: snapshot.identity,
            version: snapshot.version,
            partial,
            outside: snapshot.outside,
            ...(state.skill ? { skill: true } : {}),
            ...(document === undefined
              ? {}
              : {
                  document: {
                    format: document.format,
                    ...(document.unit === undefined ? {} : { unit: document.unit }),
                    parts: document.parts.length,
                    ...(read.pages === undefined ? {} : { shown: read.pages }),
                    ...read.scanned,
                  },
                }),
            ...(read.shown ? { ...read.shown, totalLines: read.totalLines } : {}),
          },
        };
      } finally {
        releaseReadCall(state, signal);
      }
    },
  };
  return defineTool(tool);
}
