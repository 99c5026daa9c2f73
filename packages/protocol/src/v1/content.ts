import { z } from 'zod';
import { idSchema, versionSchema } from './common.js';

/** The receipt of a save that reached disk. The new observed baseline comes from it (spec R65). */
export const saveReceiptSchema = z.object({
  /** The operation id the tool adapter generated. */
  operationId: idSchema,
  /** Path of the saved object relative to the space root. */
  target: z.string(),
  /** The object's stable identity, e.g. `repa:document/<id>`. */
  identity: z.string(),
  /** The version the save replaced; `null` for a new object. */
  previousVersion: versionSchema.nullable(),
  /** The version now on disk (`null` when the save deleted the object). */
  version: versionSchema.nullable(),
  /** The size in bytes now on disk. */
  bytes: z.number().int().nonnegative(),
});
/** The receipt of a save that reached disk. */
export type SaveReceipt = z.infer<typeof saveReceiptSchema>;

/** One change to an object this host read, found on disk since. */
export const fileChangeSchema = z.object({
  /** Path relative to the space root. */
  target: z.string(),
  /** Stable identity when known. */
  identity: z.string().optional(),
  /** What happened to the object. */
  kind: z.enum(['modified', 'deleted']),
  /** The version the host last observed. */
  previousVersion: versionSchema,
  /** The version on disk now (`null` when deleted). */
  version: versionSchema.nullable(),
  /** How the change is described: a bare notice, a unified diff, or a location hint. */
  form: z.enum(['notice', 'diff', 'location']),
  /** Bounded unified diff, for `form: 'diff'`. */
  diff: z.string().optional(),
  /** Why there is no diff (binary, too large, old text unknown), for `form: 'location'`. */
  hint: z.string().optional(),
  /** Bytes on disk now. */
  bytes: z.number().int().nonnegative().optional(),
});
/** One change to an object this host read. */
export type FileChange = z.infer<typeof fileChangeSchema>;

/** The changes found before one model request. */
export const fileChangeReportSchema = z.object({
  /** The changes, in target order. */
  changes: z.array(fileChangeSchema),
});
/** The changes found before one model request. */
export type FileChangeReport = z.infer<typeof fileChangeReportSchema>;
