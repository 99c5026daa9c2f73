import type { ImageContent } from '@earendil-works/pi-ai';
import { DEFAULT_MAX_BYTES, truncateHead } from '@earendil-works/pi-coding-agent';
import { type ContentObserver, ContentStore, readContentText } from '@repa/content';
import { refuseUnsupportedContent } from '@repa/documents';
import {
  type AttachedSource,
  RepaError,
  RUN_IMAGE_MAX_BYTES,
  type RUN_IMAGE_MIME_TYPES,
  type RunAttachment,
  type RunImage,
  type RunInput,
} from '@repa/protocol';

type ImageMimeType = (typeof RUN_IMAGE_MIME_TYPES)[number];

// Pi exports its image sniffing only for files on disk; these are the same four signatures.
function sniffImage(bytes: Uint8Array): ImageMimeType | undefined {
  const ascii = (offset: number, text: string) =>
    Buffer.from(bytes.subarray(offset, offset + text.length)).toString('latin1') === text;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && ascii(1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return undefined;
}

function imageError(message: string, index: number): RepaError {
  return new RepaError('invalid_request', message, {
    fix: `Send a PNG, JPEG, GIF or WebP image of at most ${RUN_IMAGE_MAX_BYTES / 1024 / 1024} MiB.`,
    details: { field: `input.images.${index}` },
  });
}

/** Checks image bytes: a supported image of at most the limit, of the MIME type it claims. */
function checkImageBytes(bytes: Uint8Array, claimed: string | undefined, index: number) {
  if (bytes.length > RUN_IMAGE_MAX_BYTES) {
    throw imageError(`Image ${index + 1} has ${bytes.length} bytes, over the limit.`, index);
  }
  const mimeType = sniffImage(bytes);
  if (!mimeType) {
    throw imageError(`Image ${index + 1} is not a PNG, JPEG, GIF or WebP image.`, index);
  }
  if (claimed !== undefined && claimed !== mimeType) {
    throw imageError(`Image ${index + 1} is ${mimeType}, not ${claimed} as declared.`, index);
  }
  return mimeType;
}

async function readImage(store: ContentStore, image: RunImage, index: number) {
  if (image.kind === 'data') {
    const bytes = Buffer.from(image.data, 'base64');
    return {
      type: 'image' as const,
      data: image.data,
      mimeType: checkImageBytes(bytes, image.mimeType, index),
    };
  }
  const snapshot = await store.read(image.path);
  if (snapshot.outside) throw outsideError(image.path);
  const mimeType = checkImageBytes(snapshot.bytes, undefined, index);
  return { type: 'image' as const, data: snapshot.bytes.toString('base64'), mimeType };
}

function outsideError(path: string): RepaError {
  return new RepaError('path_outside_space', `${path} is not a document of the space.`, {
    details: { path },
  });
}

/**
 * Checks a run's input before it is accepted: inline images are supported images within the
 * size limit, image files are such images inside the space, attached documents are readable
 * regular files inside the space or granted outside materials, of a kind Repa reads as text
 * (`invalid_request`, `path_outside_space`, `material_not_granted`, `unsupported_content`, …).
 */
export async function checkRunInput(
  space: string,
  appDirectory: string,
  input: RunInput,
): Promise<void> {
  if (!input.images?.length && !input.attachments?.length) return;
  const store = await ContentStore.open({ root: space, appDirectory });
  for (const [index, image] of (input.images ?? []).entries()) await readImage(store, image, index);
  for (const attachment of input.attachments ?? []) {
    const snapshot = await store.read(attachment.path);
    // Only what no layer reads is refused now; a document's text is extracted when the run starts.
    refuseUnsupportedContent(snapshot.bytes, snapshot.target, JSON.stringify(attachment.path));
  }
}

/** The run's images as Pi image content parts, file images read through the content store. */
export async function resolveRunImages(
  store: ContentStore,
  images: readonly RunImage[],
): Promise<ImageContent[]> {
  const resolved: ImageContent[] = [];
  for (const [index, image] of images.entries())
    resolved.push(await readImage(store, image, index));
  return resolved;
}

/**
 * Reads the attached documents as the read tool would (inside the space or granted materials;
 * documents as their page-marked text; Pi's head truncation), records each read of the space with
 * the observer (so later changes are told, R50; a material is never tracked, R54) and returns the
 * text the user message carries with the versions read.
 */
export async function readAttachments(
  store: ContentStore,
  observer: ContentObserver,
  attachments: readonly RunAttachment[],
): Promise<{ text: string; sources: AttachedSource[] }> {
  const parts: string[] = [];
  const sources: AttachedSource[] = [];
  for (const attachment of attachments) {
    // One character past Pi's byte bound decides the same cut as the whole text would.
    const { snapshot, text, truncated, lines, document } = await readContentText(
      store,
      attachment.path,
      { maxChars: DEFAULT_MAX_BYTES + 1 },
    );
    const cut = truncateHead(text);
    if (truncated) {
      // Pi counts no line after a final newline.
      const ended = document ? document.text.endsWith('\n') : snapshot.bytes.at(-1) === 0x0a;
      cut.totalLines = lines - (ended ? 1 : 0);
    }
    observer.recordRead(snapshot, { partial: cut.truncated, ...(document ? { document } : {}) });
    const path = snapshot.outside ? snapshot.identity : snapshot.target;
    sources.push({ path, version: snapshot.version });
    const note = cut.truncated
      ? `\n[Truncated: ${cut.outputLines} of ${cut.totalLines} lines shown. Use read for the rest.]`
      : '';
    parts.push(
      `<attached-document path="${path}" version="${snapshot.version}">\n${cut.content}${note}\n</attached-document>`,
    );
  }
  return { text: parts.join('\n\n'), sources };
}
