import type { ToolDefinition } from '@earendil-works/pi-coding-agent';
import { holdSpace, type SpaceHold } from '../space/index.js';
import { toolError } from './tool-errors.js';

/**
 * `tool` with each call holding the space at `root` as `mode` says for its whole run (spec R74):
 * the content tools shared, a command exclusively, so no tool checks a path a running command can
 * swap. A call cancelled while it waits (its signal, or `stop`) fails with `cancelled`.
 */
export function holdingSpace(
  root: string,
  mode: SpaceHold,
  tool: ToolDefinition,
  stop?: AbortSignal,
): ToolDefinition {
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const waitSignals = [signal, stop].filter((each) => each !== undefined);
      let started = false;
      try {
        return await holdSpace(
          root,
          mode,
          () => {
            started = true;
            return tool.execute(toolCallId, params, signal, onUpdate, ctx);
          },
          waitSignals.length > 0 ? AbortSignal.any(waitSignals) : undefined,
        );
      } catch (error) {
        throw started ? error : toolError(error);
      }
    },
  };
}
