import { defineTool, type ToolDefinition } from '@earendil-works/pi-coding-agent';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { Type } from 'typebox';
import { parsePatch, planPatch } from '../patch/index.js';
import { diffsOfSave } from './save-diffs.js';
import { refuseSkillFile } from './skill-files.js';
import { approvalOf } from './tool-approvals.js';
import { cancelledCall, toolError } from './tool-errors.js';
import { type ContentToolsOptions, operationIdFrom } from './tool-options.js';
import type { ContentSaveDetails } from './write-tool.js';

/** Details of an `apply_patch` result. */
export interface ContentPatchDetails extends ContentSaveDetails {
  /** Unified diff of every text change the patch made. */
  diff: string;
}

const DESCRIPTION = `Apply a patch that adds, deletes, updates or moves files in the space. The patch applies completely or not at all.
Format:
*** Begin Patch
*** Add File: <path>        then the new file's lines, each starting with +
*** Delete File: <path>
*** Update File: <path>     optionally followed by: *** Move to: <new path>
@@ <optional line to find first, e.g. a heading or function signature>
 unchanged context line (starts with a space)
-removed line
+added line
*** End of File             (optional: the chunk must match at the end of the file)
*** End Patch
Paths are relative to the space root. Give about 3 lines of context before and after each change, and start another @@ chunk for each separate place. Files you update, delete, move or overwrite must have been read first.`;

const parameters = Type.Object({
  input: Type.String({
    description: 'The whole patch, from "*** Begin Patch" to "*** End Patch".',
  }),
});

/**
 * The `apply_patch` tool: Codex's patch format (spec R63, R82), applied all or nothing across
 * files through one ContentStore save; identities move with `*** Move to:`.
 */
export function createApplyPatchTool(options: ContentToolsOptions): ToolDefinition {
  const { store, observer } = options;
  const tool: ToolDefinition<typeof parameters, ContentPatchDetails> = {
    name: 'apply_patch',
    label: 'apply_patch',
    description: DESCRIPTION,
    promptSnippet: 'Add, delete, update and move files with one all-or-nothing patch',
    promptGuidelines: [
      'Use apply_patch for changes to several files or several places at once; it applies completely or not at all.',
    ],
    parameters,
    async execute(toolCallId, { input }, signal) {
      if (signal?.aborted) throw toolError(cancelledCall());
      const operationId = operationIdFrom(options);
      let receipts: SaveReceipt[];
      let plan: Awaited<ReturnType<typeof planPatch>>;
      try {
        const hunks = parsePatch(input);
        if (hunks.length === 0)
          throw new RepaError('patch_invalid', 'Invalid patch: No files were modified.');
        for (const hunk of hunks) {
          await refuseSkillFile(options, hunk.path);
          if (hunk.type === 'update' && hunk.moveTo !== undefined)
            await refuseSkillFile(options, hunk.moveTo);
        }
        plan = await planPatch(hunks, store, observer);
        if (plan.changes.length === 0) {
          return {
            content: [{ type: 'text', text: 'The patch changes nothing on disk.' }],
            details: { operationId, receipts: [], diff: '' },
          };
        }
        // Contract: cancel is honoured only up to here; a save that has begun finishes (R66).
        receipts = await store.save(plan.changes, {
          operationId,
          ...approvalOf(options, 'apply_patch', toolCallId, signal),
          signal,
        });
      } catch (error) {
        throw toolError(error);
      }
      const added = receipts.filter((receipt) => plan.added.has(receipt.target));
      observer.recordSave(
        receipts.filter((receipt) => !plan.added.has(receipt.target)),
        { contents: plan.contents },
      );
      observer.recordSave(added, { contents: plan.contents, whole: true });
      const diffs = await diffsOfSave(store, receipts, plan.contents);
      return {
        content: [
          {
            type: 'text',
            text: `Success. Updated the following files:\n${plan.summary.join('\n')}`,
          },
        ],
        details: { operationId, receipts, diff: plan.diff, diffs },
      };
    },
  };
  return defineTool(tool);
}
