import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  errnoCode,
  type FsHandle,
  type FsLayer,
  ioError,
  READ_NO_FOLLOW,
  syncDirectory,
} from '@repa/durable-fs';
import { z } from 'zod';
import {
  APPEND_OWN_LOG,
  dataCorrupt,
  ensureDir,
  logChecksum,
  openOwnFile,
} from '../files/index.js';

/** The review log's first line. */
const LOG_MAGIC = 'repa.study-reviews/1';
/** The largest review log read (about a million reviews). */
const MAX_LOG_BYTES = 512 * 1024 * 1024;

const date = z.iso.datetime();
/** A card's FSRS state as ts-fsrs keeps it, dates as ISO strings. */
const fsrsCardSchema = z.object({
  due: date,
  stability: z.number(),
  difficulty: z.number(),
  elapsed_days: z.number(),
  scheduled_days: z.number(),
  learning_steps: z.number(),
  reps: z.number().int().nonnegative(),
  lapses: z.number().int().nonnegative(),
  state: z.number().int().min(0).max(3),
  last_review: date.optional(),
});

/** A card's FSRS state as the log records it (ts-fsrs's `Card`, dates as ISO strings). */
export type LoggedCard = z.infer<typeof fsrsCardSchema>;

/** How a card was reviewed: flipped, answer typed, a quiz question, with the tutor. */
export const REVIEW_MODES = ['flip', 'typed', 'quiz', 'tutor'] as const;

const entryId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/u);

const rateEntrySchema = z.object({
  kind: z.literal('rate'),
  /** This entry's id (what an undo names). */
  id: entryId,
  card: z.string().min(1).max(100),
  /** The hash of the card's text when it was reviewed. */
  text: z.string().max(64),
  rating: z.number().int().min(1).max(4),
  at: date,
  mode: z.enum(REVIEW_MODES),
  /** How long the review took (ms), when known. */
  ms: z.number().int().nonnegative().optional(),
  /** ts-fsrs's review log of this rating. */
  log: z.object({
    rating: z.number().int(),
    state: z.number().int(),
    due: date,
    stability: z.number(),
    difficulty: z.number(),
    elapsed_days: z.number(),
    last_elapsed_days: z.number(),
    scheduled_days: z.number(),
    learning_steps: z.number(),
    review: date,
  }),
  /** The card's state after it (a cache: checked against the state before, else rebuilt). */
  after: fsrsCardSchema,
});

const undoEntrySchema = z.object({
  kind: z.literal('undo'),
  id: entryId,
  /** The rating undone. */
  undoes: entryId,
  at: date,
});

/** How much help an answer had before its grade: none, a hint (then a second try), the passage shown. */
export const ANSWER_HELP = ['none', 'hint', 'passage'] as const;
/** What asked the question an answer answers: a quiz, or the tutor checking the learner's reasoning. */
export const ANSWER_ORIGINS = ['quiz', 'tutor'] as const;

const grade = z.number().int().min(1).max(4);

const answerEntrySchema = z.object({
  kind: z.literal('answer'),
  /** This entry's id (what an override names). */
  id: entryId,
  /** What asked it. */
  origin: z.enum(ANSWER_ORIGINS),
  /** The quiz (or tutor session) the question belongs to. */
  set: entryId,
  /** The question as the learner saw it. */
  question: z.string().min(1).max(4000),
  /** The passage as a verified Repa citation: `notes/x.md:12-18` or `book.pdf#p4:3-9`. */
  cite: z.string().min(1).max(1200),
  /** The cited document's space path and its version (sha256) when the question was asked. */
  source: z.string().min(1).max(1024),
  version: z.string().min(1).max(128),
  /** The learner's answers in order: the first try, then the second after a hint. */
  answers: z.array(z.string().max(8000)).min(1).max(2),
  /** The grade against the cited passage, 1 Again … 4 Easy. */
  grade,
  /** The passage's words the answer missed, quoted (empty when nothing was missing). */
  missing: z.string().max(4000),
  /** How much help was given before the grade. */
  help: z.enum(ANSWER_HELP),
  /** Who graded: a model's `provider/id`, or `passage-words` (the offline grader). */
  grader: z.string().min(1).max(200),
  at: date,
});

const overrideEntrySchema = z.object({
  kind: z.literal('override'),
  id: entryId,
  /** The answer entry whose grade the learner overrode (that grade stays in the log beside this). */
  of: entryId,
  grade,
  at: date,
});

const entrySchema = z.discriminatedUnion('kind', [
  rateEntrySchema,
  undoEntrySchema,
  answerEntrySchema,
  overrideEntrySchema,
]);

/** A rating, as a line of the review log. */
export type RateEntry = z.infer<typeof rateEntrySchema>;
/** An undo of a rating, as a line of the review log. */
export type UndoEntry = z.infer<typeof undoEntrySchema>;
/** A learner's graded answer to a question on a cited passage (spec R101), as a line of the log. */
export type AnswerEntry = z.infer<typeof answerEntrySchema>;
/** The learner's own grade for an answer, kept beside the one given. */
export type OverrideEntry = z.infer<typeof overrideEntrySchema>;
/** One line of the review log: the study log of every rating, answer and override. */
export type ReviewEntry = RateEntry | UndoEntry | AnswerEntry | OverrideEntry;

/** The entries read from a part of the log, and where the next read starts. */
export interface LogRead {
  entries: ReviewEntry[];
  /** The byte offset after the last intact entry read (a torn last line is read again next time). */
  end: number;
  /** Lines that were not intact entries (torn, or damaged) and are not the log's last. */
  damaged: number;
}

function parseLine(line: string): ReviewEntry | undefined {
  if (line[8] !== ' ') return undefined;
  const json = line.slice(9);
  if (line.slice(0, 8) !== logChecksum(json)) return undefined;
  try {
    const parsed = entrySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The space's review log, `.repa/study/reviews.log` (spec R101): a header line, then one line per
 * rating or undo, `\n<crc32> <json>`, each appended with one `O_APPEND` write and fsynced before
 * the rating counts. The leading newline ends whatever a killed writer left half-written, so a
 * torn line costs only itself; it is never rewritten.
 */
export class StudyReviewLog {
  /** `.repa/study/`. */
  readonly dir: string;
  /** The log file. */
  readonly path: string;
  private handle: FsHandle | undefined;

  constructor(
    private readonly fs: FsLayer,
    private readonly repaDir: string,
  ) {
    this.dir = join(repaDir, 'study');
    this.path = join(this.dir, 'reviews.log');
  }

  /** The log's size now, or 0 when there is none (a symlink or folder in its place: `data_corrupt`). */
  async size(): Promise<{ size: number; inode: bigint }> {
    try {
      const stats = await this.fs.lstat(this.path);
      if (!stats.isFile()) throw dataCorrupt('review log', this.path, 'it is not a regular file');
      return { size: Number(stats.size), inode: stats.ino };
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { size: 0, inode: 0n };
      throw ioError(error, `Checking ${this.path}`);
    }
  }

  /** The intact entries from byte `offset` on (0: from the start, the header checked). */
  async read(offset: number): Promise<LogRead> {
    let handle: FsHandle;
    try {
      handle = await this.fs.open(this.path, READ_NO_FOLLOW);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { entries: [], end: 0, damaged: 0 };
      if (errnoCode(error) === 'ELOOP') {
        throw dataCorrupt('review log', this.path, 'it is a symlink');
      }
      throw ioError(error, `Reading ${this.path}`);
    }
    let bytes: Buffer;
    try {
      const stats = await this.fs.fstat(handle);
      if (!stats.isFile()) throw dataCorrupt('review log', this.path, 'it is not a regular file');
      const size = Number(stats.size);
      if (size > MAX_LOG_BYTES) {
        throw dataCorrupt('review log', this.path, `it is larger than ${MAX_LOG_BYTES} bytes`);
      }
      bytes = size > offset ? await this.fs.readAt(handle, size - offset, offset) : Buffer.alloc(0);
    } finally {
      await this.fs.close(handle).catch(() => undefined);
    }
    return parseLog(bytes, offset, this.path);
  }

  /** Appends `entry` as one line and fsyncs it (the log and its folder made first when missing). */
  async append(entry: ReviewEntry): Promise<void> {
    const json = JSON.stringify(entrySchema.parse(entry));
    const line = `\n${logChecksum(json)} ${json}`;
    if (this.handle === undefined) {
      await ensureDir(this.fs, this.repaDir);
      await ensureDir(this.fs, this.dir);
      const opened = await openOwnFile(this.fs, this.path, APPEND_OWN_LOG, this.path);
      try {
        if (opened.size === 0) {
          await this.fs.write(opened.handle, Buffer.from(LOG_MAGIC, 'utf8'));
          await this.fs.sync(opened.handle);
          await syncDirectory(this.dir, { fs: this.fs });
        }
      } catch (error) {
        await this.fs.close(opened.handle).catch(() => undefined);
        throw ioError(error, `Writing ${this.path}`);
      }
      this.handle = opened.handle;
    }
    try {
      await this.fs.write(this.handle, Buffer.from(line, 'utf8'));
      await this.fs.sync(this.handle);
    } catch (error) {
      await this.close();
      throw ioError(error, `Writing ${this.path}`);
    }
  }

  /** Closes the append handle (the next append opens the log again). */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    if (handle !== undefined) await this.fs.close(handle).catch(() => undefined);
  }
}

/** The entries of the log's bytes read from `offset`; a last line that is not intact is not consumed. */
async function parseLog(bytes: Buffer, offset: number, path: string): Promise<LogRead> {
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  let position = offset;
  if (offset === 0) {
    if (lines[0] !== LOG_MAGIC) {
      if (text === '') return { entries: [], end: 0, damaged: 0 };
      throw dataCorrupt('review log', path, 'its first line is not a review log header', {
        note: 'Removing it forgets every review.',
      });
    }
    position = Buffer.byteLength(LOG_MAGIC);
    lines.shift();
  } else if (lines[0] === '') {
    lines.shift();
  }
  const entries: ReviewEntry[] = [];
  let damaged = 0;
  let end = position;
  for (const [index, line] of lines.entries()) {
    if (index % 4096 === 4095) await nextTurn();
    position += 1 + Buffer.byteLength(line);
    if (line === '') {
      end = position;
      continue;
    }
    const entry = parseLine(line);
    if (entry !== undefined) {
      entries.push(entry);
      end = position;
    } else if (index < lines.length - 1) {
      damaged += 1;
      end = position;
    }
  }
  return { entries, end, damaged };
}
