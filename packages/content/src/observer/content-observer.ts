import { contentKindOf, type DocumentText, formatName } from '@repa/documents';
import type { FileChange, FileChangeReport, FileChangesMode, SaveReceipt } from '@repa/protocol';
import { RepaError } from '@repa/protocol';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { documentText } from '../documents/index.js';
import { decodeText } from '../files/index.js';
import { type ContentSnapshot, holdSpace, MAX_READ_BYTES } from '../space/index.js';
import type { ContentStore } from '../store/index.js';

// A stat key is trusted only when its mtime was older than the store's window for the key's
// device just before its bytes were read (`ContentStore.settledKey`): a same-size change within
// one timestamp tick keeps the key.
const settledKey = (snapshot: ContentSnapshot, store: ContentStore) =>
  store.settledKey(snapshot.statKey, snapshot.readAt);

/** The longest a diff is computed for (ms); a change that takes longer is a location hint. */
const DIFF_MILLIS = 50;

/** What this host saw of one object. */
export interface Observation {
  /** The object's identity (the key: it survives moves made through Repa). */
  identity: string;
  /** Path relative to the space root, where the object was last seen. */
  target: string;
  /** The version (sha256 hex) the host saw. */
  version: string;
  /** True when the model saw only part of the file (an offset/limit read or truncated output). */
  partial: boolean;
  /** The text the model saw, kept only for whole reads of small text files (for diffs). */
  text?: string;
  /**
   * For a document read as text (spec R60): its format and the sha256 of each page's (or
   * chapter's) text, so a change can name the pages that changed.
   */
  document?: { format: DocumentText['format']; unit?: DocumentText['unit']; parts: string[] };
  /**
   * Cheap change key (device, inode, size, mtime); `undefined` while unknown or too recent to
   * trust (then the next check hashes the file).
   */
  statKey?: string;
}

/** Options of {@link ContentObserver}. */
export interface ContentObserverOptions {
  /** The largest file (bytes) whose text is kept for diffs. Default 64 KiB. */
  maxTextBytes?: number;
  /** The longest diff (characters) reported; larger changes become a location hint. Default 6000. */
  maxDiffChars?: number;
}

/**
 * One host's observation map (spec R52–R54, R64): which version of each space object it read or
 * saved, and the changes found on disk since. Outside materials are never recorded or tracked.
 * A new host starts with an empty map; the baseline is re-established by reading (R54).
 */
export class ContentObserver {
  private readonly store: ContentStore;
  private readonly maxTextBytes: number;
  private readonly maxDiffChars: number;
  private readonly byIdentity = new Map<string, Observation>();

  constructor(store: ContentStore, options: ContentObserverOptions = {}) {
    this.store = store;
    this.maxTextBytes = options.maxTextBytes ?? 64 * 1024;
    this.maxDiffChars = options.maxDiffChars ?? 6000;
  }

  /** What the host saw of `target` (a path relative to the space root), if anything. */
  get(target: string): Observation | undefined {
    for (const observation of this.byIdentity.values()) {
      if (observation.target === target) return observation;
    }
    return undefined;
  }

  /** Every observation, in target order. */
  list(): Observation[] {
    return [...this.byIdentity.values()].sort((a, b) => (a.target < b.target ? -1 : 1));
  }

  /**
   * Records a read. A partial read still records the whole file's version (R64), but not its text.
   * Outside materials are ignored (R54).
   */
  recordRead(
    snapshot: ContentSnapshot,
    options: { partial: boolean; document?: DocumentText },
  ): void {
    if (snapshot.outside) return;
    const { document } = options;
    this.put({
      identity: snapshot.identity,
      target: snapshot.target,
      version: snapshot.version,
      partial: options.partial,
      statKey: settledKey(snapshot, this.store),
      // The model saw a document's text, never its bytes: its pages are what a change is told by.
      ...(document === undefined
        ? this.textOf(snapshot.bytes, options.partial)
        : { document: documentShape(document) }),
    });
  }

  /**
   * Records the receipts of a save: the new baseline comes from the receipt, never from reading the
   * disk again (R65), so the agent's own saves are never reported as changes (R53).
   * `contents` (target → bytes written) lets small text files keep their text for later diffs;
   * `whole` says the model wrote the whole content (otherwise it knows as much as before).
   */
  recordSave(
    receipts: readonly SaveReceipt[],
    options: { contents?: ReadonlyMap<string, Uint8Array>; whole?: boolean } = {},
  ): void {
    // What the host knew before this save, looked up by identity first (a move keeps it).
    const before = [...this.byIdentity.values()];
    const knownBefore = (receipt: SaveReceipt) =>
      before.find((observation) => observation.identity === receipt.identity) ??
      before.find((observation) => observation.target === receipt.target);
    for (const receipt of receipts) {
      if (receipt.version !== null) continue;
      const gone = this.get(receipt.target);
      if (gone) this.byIdentity.delete(gone.identity);
    }
    for (const receipt of receipts) {
      if (receipt.version === null) continue;
      const previous = knownBefore(receipt);
      const partial = options.whole === true ? false : (previous?.partial ?? false);
      const bytes = options.contents?.get(receipt.target);
      const replaced = this.get(receipt.target);
      if (replaced && replaced.identity !== receipt.identity)
        this.byIdentity.delete(replaced.identity);
      this.put({
        identity: receipt.identity,
        target: receipt.target,
        version: receipt.version,
        partial,
        ...(bytes === undefined ? {} : this.textOf(bytes, partial)),
      });
    }
  }

  /** Forgets everything (e.g. when the host is rebuilt). */
  clear(): void {
    this.byIdentity.clear();
  }

  /**
   * The objects this host read that changed on disk since, described for `mode` (the protocol's
   * `prompts.fileChanges`, spec R14/R52):
   * - `off`: nothing is checked or reported, and no baseline moves;
   * - `on-demand`: a short notice naming each changed object (`form: 'notice'`), the content left
   *   to a re-read;
   * - `notice`: the same with the new size (`bytes`);
   * - `diff`: a bounded unified diff when the old text is known and small, else a location hint.
   * Only observed objects are checked: a stat first, a hash only when the stat changed (or the file
   * changed in the last 2 s, as timestamps are coarse), never a scan of the space. A reported
   * change moves the baseline, so it is reported once. Holds the space shared (spec R74).
   */
  async checkChanges(mode: FileChangesMode): Promise<FileChangeReport> {
    if (mode === 'off') return { changes: [] };
    return holdSpace(this.store.root, 'shared', () => this.checkHeld(mode));
  }

  private async checkHeld(mode: Exclude<FileChangesMode, 'off'>): Promise<FileChangeReport> {
    const changes: FileChange[] = [];
    const observed = this.list();
    if (observed.length > 0) await this.store.probeTimestampWindow();
    // The stats first, all at once (one round trip of the thread pool, not one per file); any
    // failure there throws before a baseline moves.
    const keys = await Promise.all(
      observed.map((observation) => this.store.space.statKeyOf(observation.target)),
    );
    for (const [index, observation] of observed.entries()) {
      const change = await this.checkOne(observation, mode, keys[index] ?? null);
      if (change) changes.push(change);
    }
    return { changes };
  }

  /**
   * After a command ran in the space (the `bash` tool): checks every object this host read like
   * `checkChanges('notice')`, and forgets the baseline of each changed one. The command's writes
   * have no receipts, so a save of such a file needs a new read first (`read_required`), and the
   * change is not reported again before the next request.
   */
  async checkChangesByCommand(): Promise<FileChangeReport> {
    const report = await this.checkChanges('notice');
    for (const change of report.changes) {
      if (change.identity !== undefined) this.byIdentity.delete(change.identity);
    }
    return report;
  }

  private put(observation: Observation): void {
    this.byIdentity.set(observation.identity, observation);
  }

  private textOf(bytes: Uint8Array, partial: boolean): { text?: string } {
    if (partial || bytes.length > this.maxTextBytes) return {};
    const text = decodeText(bytes);
    return text === undefined ? {} : { text };
  }

  private async checkOne(
    observation: Observation,
    mode: Exclude<FileChangesMode, 'off'>,
    key: string | null,
  ): Promise<FileChange | undefined> {
    if (key !== null && key === observation.statKey) return undefined;
    const base = {
      target: observation.target,
      identity: observation.identity,
      previousVersion: observation.version,
    };
    let snapshot: ContentSnapshot | undefined;
    if (key !== null) {
      try {
        snapshot = await this.store.read(observation.target);
      } catch (error) {
        // Past the store's read limit (spec R74): it changed (the host read it within the limit),
        // but it is not read or hashed. The baseline goes, so a save needs a new read.
        if (RepaError.isInstance(error) && error.code === 'file_too_large') {
          this.byIdentity.delete(observation.identity);
          const bytes = Number(error.details?.bytes ?? 0);
          const hint = `The file is too large to compare (${bytes} bytes, over Repa's read limit of ${MAX_READ_BYTES} bytes).`;
          return {
            ...base,
            kind: 'modified',
            version: null,
            form: mode === 'diff' ? 'location' : 'notice',
            hint,
            ...(mode === 'on-demand' ? {} : { bytes }),
          };
        }
        // Gone, or no longer a safe file of the space (e.g. now a symlink leading out): for this
        // host the object it read is no longer there.
        const gone = ['not_found', 'path_outside_space', 'protected_path', 'invalid_request'];
        if (!RepaError.isInstance(error) || !gone.includes(error.code)) throw error;
      }
    }
    if (snapshot === undefined) {
      this.byIdentity.delete(observation.identity);
      return { ...base, kind: 'deleted', version: null, form: 'notice' };
    }
    if (snapshot.version === observation.version) {
      observation.statKey = settledKey(snapshot, this.store);
      return undefined;
    }
    const changed = {
      ...base,
      kind: 'modified' as const,
      version: snapshot.version,
      ...(mode === 'on-demand' ? {} : { bytes: snapshot.bytes.length }),
    };
    let document: Observation['document'];
    let described: { form: 'notice' } | ReturnType<ContentObserver['describe']>;
    if (observation.document !== undefined) {
      const pages = mode === 'diff' ? await this.describePages(observation, snapshot) : undefined;
      document = pages?.document;
      described = pages === undefined ? { form: 'notice' } : { form: 'location', hint: pages.hint };
    } else {
      described = mode === 'diff' ? this.describe(observation, snapshot) : { form: 'notice' };
    }
    this.put({
      identity: observation.identity,
      target: observation.target,
      version: snapshot.version,
      partial: observation.partial,
      statKey: settledKey(snapshot, this.store),
      // The model now knows the new text only if it was shown a diff of text it knew whole.
      ...(described.form === 'diff' ? this.textOf(snapshot.bytes, false) : {}),
      ...(document === undefined ? {} : { document }),
    });
    return { ...changed, ...described };
  }

  /**
   * The location hint of a changed document: which of its pages (or chapters) differ from the text
   * the host read, and the new page hashes; a plain hint when its text cannot be read now.
   */
  private async describePages(
    observation: Observation,
    snapshot: ContentSnapshot,
  ): Promise<{ hint: string; document?: Observation['document'] }> {
    const before = observation.document as NonNullable<Observation['document']>;
    const reread = `Read ${observation.target} again to see its current text.`;
    const kind = contentKindOf(snapshot.bytes, snapshot.target);
    if (kind.kind !== 'document') {
      return { hint: `It is no longer ${formatName(before.format)}. ${reread}` };
    }
    let text: DocumentText;
    try {
      text = await documentText(
        this.store,
        { bytes: snapshot.bytes, version: snapshot.version, format: kind.format },
        JSON.stringify(snapshot.target),
      );
    } catch (error) {
      const why = RepaError.isInstance(error) ? error.message : String(error);
      return { hint: `Its new version could not be read as text: ${why} ${reread}` };
    }
    const after = documentShape(text);
    const unit = after.unit;
    if (unit === undefined || before.unit !== unit) {
      return {
        hint: `The ${formatName(kind.format).replace(/^an? /u, '')} changed. ${reread}`,
        document: after,
      };
    }
    const changed: number[] = [];
    for (let index = 0; index < Math.max(before.parts.length, after.parts.length); index++) {
      if (before.parts[index] !== after.parts[index]) changed.push(index + 1);
    }
    const count =
      before.parts.length === after.parts.length
        ? `of ${after.parts.length}`
        : `(it had ${before.parts.length} ${unit}s and now has ${after.parts.length})`;
    const hint =
      changed.length === 0
        ? `Its bytes changed but its text did not: the ${unit}s read before still hold.`
        : `${unit === 'page' ? 'Pages' : 'Chapters'} ${spans(changed)} ${count} changed since they were read. Read them again (read with pages).`;
    return { hint, document: after };
  }

  private describe(
    observation: Observation,
    snapshot: ContentSnapshot,
  ): { form: 'diff'; diff: string } | { form: 'location'; hint: string } {
    const reread = `Read ${observation.target} again to see its current content.`;
    if (observation.partial) {
      return { form: 'location', hint: `Only part of the file was read before. ${reread}` };
    }
    if (observation.text === undefined) {
      return { form: 'location', hint: `The previous text is not known. ${reread}` };
    }
    if (snapshot.bytes.length > this.maxTextBytes) {
      return {
        form: 'location',
        hint: `The file is too large for a diff (${snapshot.bytes.length} bytes). ${reread}`,
      };
    }
    const text = decodeText(snapshot.bytes);
    if (text === undefined) {
      return { form: 'location', hint: `The file is now binary. ${reread}` };
    }
    const diff = createTwoFilesPatch(
      observation.target,
      observation.target,
      observation.text,
      text,
      undefined,
      undefined,
      {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
        // Spec R74: the diff of two unrelated texts costs time in proportion to their lines times
        // the edits; a diff needing more edit steps than its characters could show, or more than
        // DIFF_MILLIS, is not computed.
        maxEditLength: Math.ceil(this.maxDiffChars / 2),
        timeout: DIFF_MILLIS,
      },
    );
    if (diff === undefined) {
      return {
        form: 'location',
        hint: `The change is too large for a diff (too many changed lines). ${reread}`,
      };
    }
    if (diff.length > this.maxDiffChars) {
      return {
        form: 'location',
        hint: `The change is too large for a diff (${diff.length} characters). ${reread}`,
      };
    }
    return { form: 'diff', diff };
  }
}

/** What the observer keeps of a document the host read: its format and page hashes. */
function documentShape(document: DocumentText): NonNullable<Observation['document']> {
  return {
    format: document.format,
    ...(document.unit === undefined ? {} : { unit: document.unit }),
    parts: document.hashes,
  };
}

/** Page numbers as spans: `3, 7–9 and 12`. */
function spans(numbers: readonly number[]): string {
  const runs: string[] = [];
  for (let index = 0; index < numbers.length; ) {
    let end = index;
    while (numbers[end + 1] === (numbers[end] as number) + 1) end += 1;
    runs.push(end === index ? `${numbers[index]}` : `${numbers[index]}–${numbers[end]}`);
    index = end + 1;
  }
  return runs.length === 1
    ? (runs[0] as string)
    : `${runs.slice(0, -1).join(', ')} and ${runs.at(-1)}`;
}
