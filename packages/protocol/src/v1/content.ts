import { z } from 'zod';
import { idSchema, versionSchema } from './common.js';

/** The receipt of a save that reached disk. The new observed baseline comes from it (spec R65). */
export const saveReceiptSchema = z
  .object({
    /** The operation id the tool adapter generated. */
    operationId: idSchema.describe('The operation id the tool adapter generated.'),
    /** Path of the saved object relative to the space root. */
    target: z.string().describe('Path of the saved object relative to the space root.'),
    /** The object's stable identity, e.g. `repa:document/<id>`. */
    identity: z.string().describe("The object's stable identity, e.g. `repa:document/<id>`."),
    /** The version the save replaced; `null` for a new object. */
    previousVersion: versionSchema
      .nullable()
      .describe('The version the save replaced; `null` for a new object.'),
    /** The version now on disk (`null` when the save deleted the object). */
    version: versionSchema
      .nullable()
      .describe('The version now on disk (`null` when the save deleted the object).'),
    /** The size in bytes now on disk. */
    bytes: z.number().int().nonnegative().describe('The size in bytes now on disk.'),
  })
  .meta({
    id: 'SaveReceipt',
    description: 'The receipt of a save that reached disk.',
  });
/** The receipt of a save that reached disk. */
export interface SaveReceipt {
  /** The operation id the tool adapter generated. */
  operationId: string;
  /** Path of the saved object relative to the space root. */
  target: string;
  /** The object's stable identity, e.g. `repa:document/<id>`. */
  identity: string;
  /** The version the save replaced; `null` for a new object. */
  previousVersion: string | null;
  /** The version now on disk (`null` when the save deleted the object). */
  version: string | null;
  /** The size in bytes now on disk. */
  bytes: number;
}

/** One change to an object this host read, found on disk since. */
export const fileChangeSchema = z
  .object({
    /** Path relative to the space root. */
    target: z.string().describe('Path relative to the space root.'),
    /** Stable identity when known. */
    identity: z.string().optional().describe('Stable identity when known.'),
    /** What happened to the object. */
    kind: z.enum(['modified', 'deleted']).describe('What happened to the object.'),
    /** The version the host last observed; `null` when it had not read the object (e.g. a file a command created or changed). */
    previousVersion: versionSchema
      .nullable()
      .describe(
        'The version the host last observed; `null` when it had not read the object (e.g. a file a command created or changed).',
      ),
    /** The version on disk now (`null` when deleted, or when the file is too large to compare). */
    version: versionSchema
      .nullable()
      .describe(
        'The version on disk now (`null` when deleted, or when the file is too large to compare).',
      ),
    /** How the change is described: a bare notice, a unified diff, or a location hint. */
    form: z
      .enum(['notice', 'diff', 'location'])
      .describe('How the change is described: a bare notice, a unified diff, or a location hint.'),
    /** Bounded unified diff, for `form: 'diff'`. */
    diff: z.string().optional().describe("Bounded unified diff, for `form: 'diff'`."),
    /** Why there is no diff (binary, too large, old text unknown), for `form: 'location'`. */
    hint: z
      .string()
      .optional()
      .describe(
        "Why there is no diff (binary, too large, old text unknown), for `form: 'location'`.",
      ),
    /** Bytes on disk now. */
    bytes: z.number().int().nonnegative().optional().describe('Bytes on disk now.'),
  })
  .meta({
    id: 'FileChange',
    description: 'One change to an object this host read, found on disk since.',
  });
/** One change to an object this host read. */
export interface FileChange {
  /** Path relative to the space root. */
  target: string;
  /** Stable identity when known. */
  identity?: string | undefined;
  /** What happened to the object. */
  kind: 'modified' | 'deleted';
  /** The version the host last observed; `null` when it had not read the object (e.g. a file a command created or changed). */
  previousVersion: string | null;
  /** The version on disk now (`null` when deleted, or when the file is too large to compare). */
  version: string | null;
  /** How the change is described: a bare notice, a unified diff, or a location hint. */
  form: 'notice' | 'diff' | 'location';
  /** Bounded unified diff, for `form: 'diff'`. */
  diff?: string | undefined;
  /** Why there is no diff (binary, too large, old text unknown), for `form: 'location'`. */
  hint?: string | undefined;
  /** Bytes on disk now. */
  bytes?: number | undefined;
}

/** The changes found before one model request. */
export const fileChangeReportSchema = z.object({
  /** The changes, in target order. */
  changes: z.array(fileChangeSchema).describe('The changes, in target order.'),
});
/** The changes found before one model request. */
export interface FileChangeReport {
  /** The changes, in target order. */
  changes: FileChange[];
}
