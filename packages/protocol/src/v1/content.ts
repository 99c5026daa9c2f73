import { z } from 'zod';
import { idSchema, versionSchema } from './common.js';

/** The receipt of a save that reached disk. The new observed baseline comes from it (spec R65). */
export const saveReceiptSchema = z
  .object({
    operationId: idSchema.describe('The operation id the tool adapter generated.'),
    target: z.string().describe('Path of the saved object relative to the space root.'),
    identity: z.string().describe("The object's stable identity, e.g. `repa:document/<id>`."),
    previousVersion: versionSchema
      .nullable()
      .describe('The version the save replaced; `null` for a new object.'),
    version: versionSchema
      .nullable()
      .describe('The version now on disk (`null` when the save deleted the object).'),
    bytes: z.number().int().nonnegative().describe('The size in bytes now on disk.'),
  })
  .meta({
    id: 'SaveReceipt',
    description: 'The receipt of a save that reached disk.',
  });

/** One change to an object this host read, found on disk since. */
export const fileChangeSchema = z
  .object({
    target: z.string().describe('Path relative to the space root.'),
    identity: z.string().optional().describe('Stable identity when known.'),
    kind: z.enum(['modified', 'deleted']).describe('What happened to the object.'),
    previousVersion: versionSchema
      .nullable()
      .describe(
        'The version the host last observed; `null` when it had not read the object (e.g. a file a command created or changed).',
      ),
    version: versionSchema
      .nullable()
      .describe(
        'The version on disk now (`null` when deleted, or when the file is too large to compare).',
      ),
    form: z
      .enum(['notice', 'diff', 'location'])
      .describe('How the change is described: a bare notice, a unified diff, or a location hint.'),
    diff: z.string().optional().describe("Bounded unified diff, for `form: 'diff'`."),
    hint: z
      .string()
      .optional()
      .describe(
        "Why there is no diff (binary, too large, old text unknown), for `form: 'location'`.",
      ),
    bytes: z.number().int().nonnegative().optional().describe('Bytes on disk now.'),
  })
  .meta({
    id: 'FileChange',
    description: 'One change to an object this host read, found on disk since.',
  });

/** The changes found before one model request. */
export const fileChangeReportSchema = z.object({
  changes: z.array(fileChangeSchema).describe('The changes, in target order.'),
});
