import { RepaError } from '@repa/protocol';
import { parseCitations } from '../citations/index.js';
import { readContentText } from '../documents/index.js';
import { DEFAULT_SEARCH_LIMITS, jobScope, runInWorker, spaceRoot } from '../search/index.js';
import type { ContentStore } from '../store/index.js';
import { inspectSpaceFile } from '../store/index.js';
import { type NoteCard, noteTags, parseNoteCards } from './note-cards.js';

/** One note's cards as last read. */
export interface ScannedNote {
  /** Its path relative to the space root. */
  path: string;
  /** Its stat key when read (unchanged: its cards are not read again). */
  statKey: string;
  cards: NoteCard[];
  /** The `#tags` it names. */
  tags: string[];
}

/** The most notes a scan reads (a bounded walk, like `find`). */
const MAX_NOTES = 100_000;
/** The most characters of a cited document read to compare its lines. */
const MAX_CITED_CHARS = 8 * 1024 * 1024;

/**
 * The notes of a space and their cards, kept between scans: a scan walks the space for `.md`
 * files with the search tools' rules and reads again only the notes whose stat key changed.
 */
export class NoteScan {
  private notes = new Map<string, ScannedNote>();

  /** The notes of the space now, in path order. */
  async scan(store: ContentStore): Promise<ScannedNote[]> {
    const scope = await jobScope(store, spaceRoot(store.root), false, DEFAULT_SEARCH_LIMITS);
    const { entries } = await runInWorker({
      ...scope,
      kind: 'find',
      glob: '**/*.md',
      limit: MAX_NOTES,
    });
    const next = new Map<string, ScannedNote>();
    for (const entry of entries) {
      if (entry.folder || entry.problem !== undefined || next.has(entry.target)) continue;
      const statKey = await store.space.statKeyOf(entry.target);
      if (statKey === null) continue;
      const known = this.notes.get(entry.target);
      if (known !== undefined && known.statKey === statKey) {
        next.set(entry.target, known);
        continue;
      }
      let snapshot: Awaited<ReturnType<ContentStore['read']>>;
      try {
        snapshot = await store.read(entry.target);
      } catch (error) {
        // A note gone or turned unreadable since the walk has no cards now.
        if (RepaError.isInstance(error)) continue;
        throw error;
      }
      const text = Buffer.from(snapshot.bytes).toString('utf8');
      next.set(entry.target, {
        path: entry.target,
        statKey: snapshot.statKey ?? statKey,
        cards: parseNoteCards(text, snapshot.identity),
        tags: noteTags(text),
      });
    }
    this.notes = next;
    return [...next.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The note holding card `id` at the last scan. */
  find(id: string): { note: ScannedNote; card: NoteCard } | undefined {
    for (const note of this.notes.values()) {
      const card = note.cards.find((one) => one.id === id);
      if (card !== undefined) return { note, card };
    }
    return undefined;
  }
}

/** Whether a card's cited passage still reads as its quote (spec R103). */
export type SourceStatus =
  | { status: 'none' }
  | { status: 'ok'; cite: string }
  | { status: 'changed'; cite: string; quote: string; lines: string | null };

/** A cited document as last looked at: its stat key and version, its text once needed. */
interface CitedFile {
  size: number;
  mtimeMs: number;
  version: string | null;
  lines?: string[] | null;
  /** For a paged document: the text's line (from 1) of each page's marker. */
  parts?: number[];
}

const squeeze = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim();

/**
 * The source status of cards with a Repa comment: their cited lines compared with their quote
 * only when the document's version is no longer the one the card was written from (an unchanged
 * version is found from size and mtime, nothing read). Documents are looked at once per check.
 */
export class SourceCheck {
  private readonly files = new Map<string, CitedFile>();

  /** The status of `card` now (`seen` shares the look-ups of one scan). */
  async statusOf(store: ContentStore, card: NoteCard, seen: Set<string>): Promise<SourceStatus> {
    const source = card.source;
    if (source === undefined) return { status: 'none' };
    const [cited] = parseCitations(`[${source.cite}]`);
    if (cited === undefined) return { status: 'none' };
    const file = await this.look(store, cited.document, seen);
    if (file.version === source.version) return { status: 'ok', cite: source.cite };
    const changed = (lines: string | null) => ({
      status: 'changed' as const,
      cite: source.cite,
      quote: source.quote,
      lines,
    });
    if (file.version === null) return changed(null);
    file.lines ??= await this.text(store, cited.document, file);
    if (file.lines === null) return changed(null);
    let first = 0;
    if (cited.page !== undefined) {
      const marker = file.parts?.[cited.page - 1];
      if (marker === undefined) return changed(null);
      first = marker;
    }
    const lines = file.lines.slice(first + cited.startLine - 1, first + cited.endLine).join('\n');
    return squeeze(lines).includes(squeeze(source.quote))
      ? { status: 'ok', cite: source.cite }
      : changed(lines);
  }

  /** The version of `document` now (null: gone, or nothing of the space); `seen` as above. */
  async versionOf(
    store: ContentStore,
    document: string,
    seen: Set<string>,
  ): Promise<string | null> {
    return (await this.look(store, document, seen)).version;
  }

  private async look(store: ContentStore, document: string, seen: Set<string>): Promise<CitedFile> {
    const known = this.files.get(document);
    if (known !== undefined && seen.has(document)) return known;
    seen.add(document);
    let found: CitedFile;
    try {
      const target = document.startsWith('repa:')
        ? (await store.locate(document)).target
        : document;
      const options = { headBytes: 0 };
      let inspected = await inspectSpaceFile(store, target, {
        ...options,
        ...(known === undefined ? {} : { known: { size: known.size, mtimeMs: known.mtimeMs } }),
      });
      if (inspected.file === 'unchanged' && known !== undefined) return known;
      if (typeof inspected.file === 'string')
        inspected = await inspectSpaceFile(store, target, options);
      found =
        inspected.file === null || typeof inspected.file === 'string'
          ? { size: -1, mtimeMs: -1, version: null }
          : {
              size: inspected.file.size,
              mtimeMs: inspected.file.mtimeMs,
              version: inspected.file.version,
            };
    } catch (error) {
      // An address that names nothing of the space now (or names an outside material) has no
      // version to compare; a material is read below.
      if (!RepaError.isInstance(error)) throw error;
      found = { size: -1, mtimeMs: -1, version: null };
      if (document.startsWith('repa:material/')) {
        try {
          // Its version only: the bytes are read, nothing is extracted.
          found.version = (await store.read(document)).version;
        } catch {
          // Gone or no longer granted: changed, with no lines.
        }
      }
    }
    this.files.set(document, found);
    return found;
  }

  private async text(store: ContentStore, document: string, file: CitedFile) {
    try {
      const read = await readContentText(store, document, { maxChars: MAX_CITED_CHARS });
      if (read.document !== undefined) file.parts = read.document.parts.map((part) => part.line);
      return read.text.split('\n');
    } catch (error) {
      if (RepaError.isInstance(error)) return null;
      throw error;
    }
  }
}
