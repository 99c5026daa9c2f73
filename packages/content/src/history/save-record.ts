import { versionSchema } from '@repa/protocol';
import { z } from 'zod';

/** The largest save record read back (bytes): far more than the names of any save's changes. */
export const MAX_SAVE_RECORD_BYTES = 8 * 1024 * 1024;

const savedChangeSchema = z.object({
  /** Path relative to the space root (checked again before any use, like a tool call's). */
  target: z.string(),
  /** The object's identity, when the change had one (a command's changes may not). */
  identity: z.string().optional(),
  /** The version before the change (`null`: the file did not exist, or a command made it). */
  previousVersion: versionSchema.nullable(),
  /** The version after it (`null`: deleted, or too large to compare). */
  version: versionSchema.nullable(),
  /** Bytes written. */
  bytes: z.number().int().nonnegative(),
  /** Whether the bytes of `previousVersion` were kept when the change was made. */
  kept: z.boolean(),
});

/** One change of a {@link SaveRecord}. */
export type SavedChange = z.infer<typeof savedChangeSchema>;

/**
 * The record of one save (or one `bash` command's changes) in `.repa/history/saves/<op>.json`,
 * written once the save is on disk: what a diff and a rewind of its run work from.
 */
export const saveRecordSchema = z.object({
  format: z.literal('repa.saved/1'),
  operationId: z.string(),
  savedAt: z.string(),
  /** `save`: a store save with receipts; `command`: files a command changed, without receipts. */
  kind: z.enum(['save', 'command']),
  changes: z.array(savedChangeSchema),
});

/** The record of one save or command. */
export type SaveRecord = z.infer<typeof saveRecordSchema>;
