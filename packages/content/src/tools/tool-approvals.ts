import type { ToolDefinition } from '@earendil-works/pi-coding-agent';
import type { SaveDiff } from '@repa/protocol';
import type { SaveOptions } from '../store/index.js';
import { toolError } from './tool-errors.js';

/** What a tool asks the learner before it saves or runs a command (`tools.edits` `ask`). */
export type ApprovalAsk =
  | {
      kind: 'save';
      toolName: string;
      toolCallId: string;
      /** The exact change of every file, from the versions the save is checked against. */
      diffs: SaveDiff[];
      /** Every file the save writes, moves or deletes. */
      targets: string[];
    }
  | { kind: 'command'; toolName: string; toolCallId: string; command: string };

/** The learner's say over saves and commands, as the host of the current run gives it. */
export interface ToolApprovals {
  /** Whether the current run's saves and commands wait for the learner (read at each call). */
  asking(): boolean;
  /** Whether the current run may change no file (`tools.edits` `off`): commands see the space read-only. */
  readOnly?(): boolean;
  /** Resolves once approved; rejects (`edit_refused`, `cancelled`) when not: nothing happens then. */
  approve(ask: ApprovalAsk, signal: AbortSignal | undefined): Promise<void>;
}

/**
 * How a tool call's save asks the learner: `approve` with the save's planned diff, and the call's
 * `signal` (a cancel during the wait writes nothing); `undefined` when the run does not ask.
 */
export function approvalOf(
  options: { approvals?: ToolApprovals | undefined },
  toolName: string,
  toolCallId: string,
  signal: AbortSignal | undefined,
): Pick<SaveOptions, 'approve' | 'signal'> | undefined {
  const { approvals } = options;
  if (!approvals?.asking()) return undefined;
  return {
    approve: (preview) =>
      approvals.approve({ kind: 'save', toolName, toolCallId, ...preview }, signal),
    ...(signal ? { signal } : {}),
  };
}

/**
 * `tool` (a command tool, its `command` parameter) asking `approvals` for the command line before
 * anything of the call runs, so the wait holds nothing (not the space's hold); refused: not run.
 */
export function approvingCommands(
  tool: ToolDefinition,
  approvals: ToolApprovals | undefined,
): ToolDefinition {
  if (approvals === undefined) return tool;
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      if (approvals.asking()) {
        const command = String((params as { command?: unknown }).command ?? '');
        const ask = { kind: 'command' as const, toolName: tool.name, toolCallId, command };
        await approvals.approve(ask, signal).catch((error: unknown) => {
          throw toolError(error);
        });
      }
      return tool.execute(toolCallId, params, signal, onUpdate, ctx);
    },
  };
}
