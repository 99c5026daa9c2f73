import {
  createWriteToolDefinition,
  defineTool,
  type ToolDefinition,
  type WriteOperations,
} from '@earendil-works/pi-coding-agent';
import { documentReadOnly, refuseDocumentSave } from '@repa/documents';
import type { SaveDiff, SaveReceipt } from '@repa/protocol';
import { Type } from 'typebox';
import { PATH_DESCRIPTION } from './read-tool.js';
import { diffsOfSave } from './save-diffs.js';
import { savingCallState } from './saving-call.js';
import { sharedParameters } from './shared-parameters.js';
import { refuseSkillFile } from './skill-files.js';
import { inToolCall, runToolCall } from './tool-call-context.js';
import { toolError } from './tool-errors.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of a saving tool's result. */
export interface ContentSaveDetails {
  /** The operation id of the save. */
  operationId: string;
  /** One receipt per object the save changed (spec R65). */
  receipts: SaveReceipt[];
  /** What the save changed in each file, from the bytes it replaced and wrote (bounded). */
  diffs?: SaveDiff[];
}

/**
 * Pi's `write` tool saving through the ContentStore: a new file is created (with its folders, only
 * after every check passed); an existing file is replaced only at the version this host observed
 * (`read_required` when it never read it, `stale_version` when it changed since; spec R61).
 */
export function createContentWriteTool(options: ContentToolsOptions): ToolDefinition {
  const { store, observer } = options;
  const operations: WriteOperations = {
    // Folders are created by the save itself, after the path and version checks.
    mkdir: async () => undefined,
    writeFile: (_path, content) =>
      inToolCall(async (state) => {
        const location = await store.locate(state.address);
        const bytes = Buffer.from(content, 'utf8');
        const seen = location.outside ? undefined : observer.get(location.target);
        // A document the host read as text, or a file named as one, is never written (spec R60).
        if (seen?.document !== undefined)
          throw documentReadOnly(location.target, seen.document.format);
        if (!location.outside) refuseDocumentSave(location.target, null);
        state.receipts = await store.save(
          [{ target: state.address, content: bytes, expectedVersion: seen?.version ?? null }],
          { operationId: state.operationId, ...state.approval },
        );
        state.written = bytes;
      }),
  };
  const base = createWriteToolDefinition(store.root, { operations });
  const { renderResult, ...baseRest } = base;
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      path: Type.String({ description: PATH_DESCRIPTION }),
      content: base.parameters.properties.content,
    }),
  );
  const tool: ToolDefinition<typeof parameters, ContentSaveDetails> = {
    ...baseRest,
    description: `${base.description} Replacing an existing file requires having read it first.`,
    parameters,
    renderResult:
      renderResult &&
      ((result, renderOptions, theme, context) =>
        renderResult({ ...result, details: undefined }, renderOptions, theme, context)),
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const state = savingCallState(options, 'write', toolCallId, params.path, signal);
      try {
        await refuseSkillFile(options, params.path);
        await runToolCall(state, () => base.execute(toolCallId, params, signal, undefined, ctx));
      } catch (error) {
        // Contract: a save that reached disk is reported as saved, even if a cancel came later (R66).
        if (state.receipts === undefined) throw toolError(error, state);
      }
      const receipts = state.receipts as SaveReceipt[];
      const [receipt] = receipts as [SaveReceipt];
      const contents = new Map([[receipt.target, state.written as Buffer]]);
      observer.recordSave(receipts, { contents, whole: true });
      const diffs = await diffsOfSave(store, receipts, contents);
      return {
        content: [
          {
            type: 'text',
            text: `Successfully wrote ${receipt.bytes} bytes to ${receipt.target} (${receipt.identity}).`,
          },
        ],
        details: { operationId: state.operationId, receipts, diffs },
      };
    },
  };
  return defineTool(tool);
}
