import { versionSchema } from '@repa/protocol/schemas';
import { z } from 'zod';
import { MAX_READ_BYTES } from '../space/index.js';

/**
 * The largest intent record read back (bytes; spec R74): a save writes at most
 * {@link MAX_READ_BYTES} of content, base64 in its record, plus the names of its changes.
 */
export const MAX_RECORD_BYTES = Math.ceil(MAX_READ_BYTES / 3) * 4 + 16 * 1024 * 1024;

const intentChangeSchema = z.object({
  /** Target path relative to the space root. */
  target: z.string(),
  /** The object's identity after the save. */
  identity: z.string(),
  /** For a move: the path whose identity moves to `target`. */
  identityFrom: z.string().optional(),
  /** The version on disk when the save was planned (`null`: the target did not exist). */
  previousVersion: versionSchema.nullable(),
  /** The version the save writes (`null`: it deletes the target). */
  version: versionSchema.nullable(),
  /** The new bytes, base64 (`null` for a delete). */
  content: z.string().nullable(),
  /** The temp file, relative to the space root (`null` for a delete). */
  temp: z.string().nullable(),
  /** Permission bits given to the new file (those of the file it replaces), or `null`. */
  mode: z.number().int().nullable(),
  /** Folders the save creates, relative to the space root, outermost first. */
  createdDirs: z.array(z.string()),
  /** After recovery: whether this change is on disk. */
  applied: z.boolean().optional(),
});

/** One change of an intent record. */
export type IntentChange = z.infer<typeof intentChangeSchema>;

/** The on-disk record of a save, written before anything else changes (`.repa/intents/<id>.json`). */
export const intentRecordSchema = z.object({
  format: z.literal('repa.content-intent/1'),
  operationId: z.string(),
  createdAt: z.string(),
  /**
   * `pending` while saving (or after a crash); `recoverable` once recovery left it unfinished;
   * `committed` when the save was reported saved but its clean-up failed (never replayed).
   */
  status: z.enum(['pending', 'recoverable', 'committed']),
  changes: z.array(intentChangeSchema),
  /** Why recovery kept this record. */
  reason: z.string().optional(),
});

/** The on-disk record of a save. */
export type IntentRecord = z.infer<typeof intentRecordSchema>;
