import type { ToolDefinition } from '@earendil-works/pi-coding-agent';

/** A theme whose every method returns its last (text) argument. */
const theme = new Proxy(
  {},
  {
    get:
      () =>
      (...args: unknown[]) =>
        args.at(-1),
  },
) as never;

/**
 * Renders `tool`'s call of an edit of `f.txt` in the space at `root` as Pi's terminal does, and
 * returns what its call component says of a disk preview: `previewPending` (undefined when the
 * tool renders no call or keeps no such state).
 */
export function editCallPreviewPending(tool: ToolDefinition, root: string): boolean | undefined {
  const args = { path: 'f.txt', edits: [{ oldText: 'a', newText: 'b' }] };
  const state: { callComponent?: { previewPending?: boolean } } = {};
  const context = {
    args,
    toolCallId: 'c1',
    invalidate: () => undefined,
    lastComponent: undefined,
    state,
    cwd: root,
    executionStarted: false,
    argsComplete: true,
    isPartial: false,
    expanded: false,
    showImages: false,
    isError: false,
  };
  tool.renderCall?.(args as never, theme, context as never);
  return state.callComponent?.previewPending;
}
