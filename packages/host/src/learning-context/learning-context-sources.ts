import { ContentStore, inspectSpaceFile, listSpaceFolder } from '@repa/content';
import type { LearningContextSourceVersion } from '@repa/context';
import { type LearningContextSourceState, RepaError } from '@repa/protocol';

/** The most bytes of a source's text kept for a build (the hash always covers the whole file). */
export const SOURCE_TEXT_LIMIT = 4 * 1024 * 1024;

/** The most documents a build reads from the folders it is given. */
export const FOLDER_DOCUMENTS_LIMIT = 50;

/** A note's name: read as text (a document, a PDF or EPUB, is read as its text too). */
const NOTE_NAME = /\.(md|markdown|txt|text|rst|adoc|org|tex)$/iu;

/**
 * The sources with each folder among them replaced by every readable document below it (notes,
 * PDF, DOCX, EPUB and HTML files, by the `ls` tool's rules), in path order; a file or a `repa:`
 * identity stays as named. `invalid_request` when a folder holds none, or more than
 * {@link FOLDER_DOCUMENTS_LIMIT} together.
 */
export async function expandSourceFolders(
  space: string,
  sources: readonly string[],
): Promise<{ sources: string[]; folders: string[] }> {
  const store = await ContentStore.open({ root: space });
  const out: string[] = [];
  const folders: string[] = [];
  let found = 0;
  const below = async (folder: string): Promise<string[]> => {
    const { entries } = await listSpaceFolder(store, folder);
    const documents: string[] = [];
    for (const entry of entries) {
      if (entry.problem !== undefined) continue;
      if (entry.folder) documents.push(...(await below(entry.path)));
      else if (entry.document || NOTE_NAME.test(entry.path)) {
        found += 1;
        if (found > FOLDER_DOCUMENTS_LIMIT) break;
        documents.push(entry.path);
      }
    }
    return documents;
  };
  for (const source of sources) {
    let documents: string[] | undefined;
    try {
      documents = source.startsWith('repa:') ? undefined : await below(source);
    } catch (error) {
      // A file (or nothing there: the read says so) is a source as named.
      if (!(RepaError.isInstance(error) && ['invalid_request', 'not_found'].includes(error.code)))
        throw error;
    }
    if (documents === undefined) {
      out.push(source);
      continue;
    }
    const named = source.replace(/\/+$/u, '') || '.';
    if (found > FOLDER_DOCUMENTS_LIMIT) {
      throw new RepaError(
        'invalid_request',
        `The folders named hold more than ${FOLDER_DOCUMENTS_LIMIT} readable documents; a learning context is built from at most ${FOLDER_DOCUMENTS_LIMIT}.`,
        { fix: `Name sub-folders or files of ${named}/ instead.` },
      );
    }
    if (documents.length === 0) {
      throw new RepaError('invalid_request', `The folder ${named}/ holds no readable document.`, {
        fix: 'Name notes (.md, .txt) or PDF, DOCX, EPUB or HTML files, or folders holding them.',
      });
    }
    folders.push(named);
    out.push(...documents.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return { sources: [...new Set(out)], folders };
}

/** One source read for a build: its version and its text. */
export interface LearningContextSourceText {
  /** Its version (the hash of all its bytes, read in one pass with `text`). */
  version: LearningContextSourceVersion;
  /** The file's text (UTF-8, at most {@link SOURCE_TEXT_LIMIT} bytes); empty for a `repa:` identity or a missing file. */
  text: string;
  /** True when the file has more bytes than `text` holds. */
  truncated: boolean;
  /** False when the file does not exist (then `version.sha256` is null). */
  exists: boolean;
}

/**
 * Reads each source of a learning context (space paths; `repa:` identities are kept unhashed) and
 * records its sha256, size and mtime, each path checked exactly as a tool call's through the
 * content store (`inspectSpaceFile`): a path outside the space (absolute, `..`, through a link
 * leaving it) is `path_outside_space`, one in `.repa` or through a link into it is
 * `protected_path`; a missing or non-regular file is returned with `exists: false` and no hash.
 */
export async function readLearningContextSources(
  space: string,
  paths: readonly string[],
): Promise<LearningContextSourceText[]> {
  const store = await ContentStore.open({ root: space });
  const out: LearningContextSourceText[] = [];
  for (const path of paths) {
    if (path.startsWith('repa:')) {
      out.push({ version: { path, sha256: null }, text: '', truncated: false, exists: true });
      continue;
    }
    const { path: checked, file } = await inspectSpaceFile(store, path, {
      headBytes: SOURCE_TEXT_LIMIT,
    });
    if (file === null || typeof file === 'string') {
      const version = { path: checked, sha256: null };
      out.push({ version, text: '', truncated: false, exists: false });
      continue;
    }
    out.push({
      version: { path: checked, sha256: file.version, size: file.size, mtimeMs: file.mtimeMs },
      text: file.head.toString('utf8'),
      truncated: file.head.length < file.size,
      exists: true,
    });
  }
  return out;
}

/**
 * Compares each recorded source with the space now, its path checked again exactly as a tool
 * call's (a source since replaced by a link leaving the space or into `.repa` is never read: it
 * is `vanished`): stat first, `changed` without reading when its size differs (or passes the
 * store's bound), re-hashing only when just its mtime differs (as the content observer does).
 * Never throws for a missing or unsafe file.
 */
export async function checkLearningContextSources(
  space: string,
  sources: readonly string[],
  versions: readonly LearningContextSourceVersion[],
): Promise<LearningContextSourceState[]> {
  const byPath = new Map(versions.map((version) => [version.path, version]));
  const store = await ContentStore.open({ root: space }).catch(() => undefined);
  const out: LearningContextSourceState[] = [];
  for (const path of sources) {
    const version = byPath.get(path);
    if (!version || version.sha256 === null) {
      out.push({ path, sha256: null, state: 'unversioned' });
      continue;
    }
    const found =
      store === undefined
        ? undefined
        : await inspectSpaceFile(store, path, { headBytes: 0, known: version }).catch(
            (error: unknown) =>
              RepaError.isInstance(error) && error.code === 'file_too_large'
                ? 'too-large'
                : undefined,
          );
    const file = typeof found === 'object' ? found.file : found;
    const state: LearningContextSourceState['state'] =
      file === undefined || file === null
        ? 'vanished'
        : typeof file === 'string'
          ? file === 'unchanged'
            ? 'unchanged'
            : 'changed'
          : file.version === version.sha256
            ? 'unchanged'
            : 'changed';
    out.push({ path, sha256: version.sha256, state });
  }
  return out;
}
