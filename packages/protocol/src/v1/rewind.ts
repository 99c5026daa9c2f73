import { z } from 'zod';
import { versionSchema } from './common.js';
import { saveReceiptSchema } from './content.js';
import { wireErrorSchema } from './errors/repa-error.js';

/** What one save changed in one file, from the bytes it replaced and the bytes it wrote. */
export const saveDiffSchema = z
  .looseObject({
    target: z.string().describe('Path of the file relative to the space root.'),
    added: z.number().int().nonnegative().describe('Lines added.'),
    removed: z.number().int().nonnegative().describe('Lines removed.'),
    diff: z
      .string()
      .optional()
      .describe(
        'Unified diff of the change (3 lines of context), bounded; absent when `note` says why.',
      ),
    truncated: z
      .boolean()
      .optional()
      .describe('True when `diff` was cut short (`repa runs diff` shows all of it).'),
    note: z
      .string()
      .optional()
      .describe('Why there is no line diff: binary bytes, too large, or the bytes are not kept.'),
  })
  .meta({
    id: 'SaveDiff',
    description:
      'What one save changed in one file, from the bytes it replaced and the bytes it wrote.',
  });

/** What a run did to a file, as a rewind or a diff sees it. */
export const runChangeKindSchema = z.enum(['modified', 'created', 'deleted', 'moved']).meta({
  id: 'RunChangeKind',
  description:
    'What a run did to a file: `modified`, `created`, `deleted`, or `moved` (to `movedTo`).',
});

/** One file a run changed, from before the run to after it, with its diff. */
export const runFileDiffSchema = z
  .looseObject({
    target: z
      .string()
      .describe('The path the file had before the run (for a new file: where the run made it).'),
    movedTo: z.string().optional().describe('For a move: where the run moved it.'),
    change: runChangeKindSchema.describe('What the run did to the file.'),
    beforeVersion: versionSchema
      .nullable()
      .describe('The version before the run (`null`: the file did not exist).'),
    afterVersion: versionSchema
      .nullable()
      .describe('The version the run left (`null`: the run deleted it).'),
    diff: saveDiffSchema.describe('The change from before the run to after it.'),
  })
  .meta({ id: 'RunFileDiff', description: 'One file a run changed, with its diff.' });

/** A file a `bash` command of the run created, changed or deleted: listed, never rewound. */
export const commandChangeSchema = z
  .looseObject({
    target: z.string().describe('Path relative to the space root.'),
    operationId: z.string().describe("The command's operation id among the run's operations."),
  })
  .meta({
    id: 'CommandChange',
    description:
      'A file a `bash` command of the run changed; commands leave no receipts, so it is not rewound.',
  });

/** One file of a rewind: what it restores, or why it refuses. */
export const rewindFileSchema = z
  .looseObject({
    target: z
      .string()
      .describe('Where the file is restored (for a move: the path it had before the run).'),
    movedTo: z
      .string()
      .optional()
      .describe('For a move: where the run moved it (the rewind moves it back from there).'),
    change: runChangeKindSchema.describe('What the run did to the file.'),
    runVersion: versionSchema
      .nullable()
      .describe('The version the run left (`null`: the run deleted it); the rewind expects it.'),
    restoreVersion: versionSchema
      .nullable()
      .describe('The version before the run, which the rewind writes back (`null`: removed).'),
    currentVersion: versionSchema
      .nullable()
      .optional()
      .describe('The version on disk when the rewind looked (`null`: no file there).'),
    status: z
      .enum(['planned', 'restored', 'unchanged', 'refused'])
      .describe(
        '`planned` (a preview: would be restored), `restored`, `unchanged` (already as before the run) or `refused` (see `error`).',
      ),
    forced: z
      .boolean()
      .optional()
      .describe(
        'True when the file had changed since the run and `force` wrote the old bytes over it anyway.',
      ),
    error: wireErrorSchema
      .optional()
      .describe(
        'Why it was refused: `stale_version` (changed since the run; both versions in `details`), `history_evicted` (the old bytes are no longer kept), …',
      ),
    receipts: z
      .array(saveReceiptSchema)
      .optional()
      .describe("The rewind's own save of this file, once restored."),
    diff: saveDiffSchema
      .optional()
      .describe('What restoring changes: from the bytes on disk now to the bytes before the run.'),
  })
  .meta({ id: 'RewindFile', description: 'One file of a rewind: what it restores, or why not.' });

/** What a rewind did (or, as a preview, would do). */
export const rewindResultSchema = z
  .looseObject({
    rewindId: z
      .string()
      .describe(
        "The rewind's id: its saves are `<rewindId>-<n>`, and `run.rewind` with it as `runId` undoes it.",
      ),
    runId: z.string().describe('The run (or rewind) that was rewound.'),
    preview: z.boolean().describe('True when nothing was written (`preview: true`).'),
    files: z.array(rewindFileSchema).describe('Each file the run changed that the rewind covers.'),
    commands: z
      .array(commandChangeSchema)
      .describe('Files changed by `bash` commands of the run: not rewindable (no receipts).'),
    conversation: z
      .looseObject({
        leafId: z
          .string()
          .nullable()
          .describe('The session entry the conversation continues from (`null`: its start).'),
      })
      .optional()
      .describe('Set when the conversation was moved back to before the run as well.'),
    told: z
      .array(z.string())
      .optional()
      .describe('The files the model is told at its next request were rewound.'),
  })
  .meta({ id: 'RewindResult', description: 'What a rewind did, or as a preview would do.' });
