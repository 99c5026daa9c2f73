import {
  createEditToolDefinition,
  defineTool,
  type EditOperations,
  type EditToolDetails,
  generateDiffString,
  generateUnifiedPatch,
  type ToolDefinition,
} from '@earendil-works/pi-coding-agent';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { Type } from 'typebox';
import { decodeText } from '../files/index.js';
import { observedSnapshot } from './observed-snapshot.js';
import { PATH_DESCRIPTION } from './read-tool.js';
import { restoreLineEndings } from './restore-line-endings.js';
import { diffsOfSave } from './save-diffs.js';
import { savingCallState } from './saving-call.js';
import { sharedParameters } from './shared-parameters.js';
import { inToolCall, runToolCall, type ToolCallState } from './tool-call-context.js';
import { toolError } from './tool-errors.js';
import type { ContentToolsOptions } from './tool-options.js';
import type { ContentSaveDetails } from './write-tool.js';

/** Details of an `edit` result: Pi's committed diff plus the save's operation id and receipts. */
export type ContentEditDetails = EditToolDetails & ContentSaveDetails;

const lf = (text: string) => text.replace(/^\uFEFF/u, '').replace(/\r\n|\r/gu, '\n');

/**
 * Pi's `edit` tool (its parameters, matching and committed-diff display) locating and saving through
 * the ContentStore (spec R62): the file must have been read at its current version; every
 * character the edit does not change is kept, including each line's own ending, a BOM, a missing
 * final newline and the file mode. Pi's `renderCall` disk preview is never used (R67).
 */
export function createContentEditTool(options: ContentToolsOptions): ToolDefinition {
  const { store, observer } = options;
  const snapshotOf = async (state: ToolCallState) => {
    if (state.snapshot === undefined) {
      const snapshot = await observedSnapshot(options, state.address);
      if (decodeText(snapshot.bytes) === undefined) {
        throw new RepaError(
          'invalid_request',
          `${snapshot.target} is not UTF-8 text, so edit cannot change it safely.`,
          {
            fix: 'Only edit text files; replace other files with write after reading them.',
          },
        );
      }
      state.snapshot = snapshot;
    }
    return state.snapshot;
  };
  const operations: EditOperations = {
    access: () => inToolCall(async (state) => void (await snapshotOf(state))),
    readFile: () => inToolCall(async (state) => (await snapshotOf(state)).bytes),
    writeFile: (_path, content) =>
      inToolCall(async (state) => {
        const snapshot = await snapshotOf(state);
        const bytes = Buffer.from(
          restoreLineEndings(snapshot.bytes.toString('utf8'), content),
          'utf8',
        );
        state.receipts = await store.save(
          [{ target: snapshot.target, content: bytes, expectedVersion: snapshot.version }],
          { operationId: state.operationId, ...state.approval },
        );
        state.written = bytes;
      }),
  };
  const base = createEditToolDefinition(store.root, { operations });
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      path: Type.String({ description: PATH_DESCRIPTION }),
      edits: base.parameters.properties.edits,
    }),
  );
  const { renderCall, renderResult, ...baseRest } = base;
  const stripEdits = <T extends { path?: unknown }>(args: T) => ({ path: args?.path }) as T;
  const tool: ToolDefinition<typeof parameters, ContentEditDetails> = {
    ...baseRest,
    description: `${base.description} The file must have been read first.`,
    parameters,
    // Pi's call renderer previews the edit by reading the local disk; given only the path it
    // draws the header and never reads (spec R67). The committed diff comes from the result.
    renderCall:
      renderCall &&
      ((args, theme, context) =>
        renderCall(stripEdits(args), theme, { ...context, args: stripEdits(context.args) })),
    renderResult:
      renderResult &&
      ((result, renderOptions, theme, context) =>
        renderResult(result, renderOptions, theme, { ...context, args: stripEdits(context.args) })),
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const state = savingCallState(options, 'edit', toolCallId, params.path, signal);
      let piDetails: EditToolDetails | undefined;
      let text: string | undefined;
      try {
        const result = await runToolCall(state, () =>
          base.execute(toolCallId, params, signal, undefined, ctx),
        );
        piDetails = result.details;
        const first = result.content[0];
        text = first?.type === 'text' ? first.text : undefined;
      } catch (error) {
        // Contract: a save that reached disk is reported as saved, even if a cancel came later (R66).
        if (state.receipts === undefined) throw toolError(error, state);
      }
      const receipts = state.receipts as SaveReceipt[];
      const [receipt] = receipts as [SaveReceipt];
      const written = state.written as Buffer;
      if (piDetails === undefined) {
        const before = lf((state.snapshot as { bytes: Buffer }).bytes.toString('utf8'));
        const after = lf(written.toString('utf8'));
        const diff = generateDiffString(before, after);
        piDetails = { ...diff, patch: generateUnifiedPatch(receipt.target, before, after) };
      }
      const contents = new Map([[receipt.target, written]]);
      observer.recordSave(receipts, { contents });
      const diffs = await diffsOfSave(store, receipts, contents);
      return {
        content: [{ type: 'text', text: text ?? `Successfully edited ${receipt.target}.` }],
        details: { ...piDetails, operationId: state.operationId, receipts, diffs },
      };
    },
  };
  return defineTool(tool);
}
