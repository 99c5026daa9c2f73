import type { ExtensionContext, ToolDefinition } from '@earendil-works/pi-coding-agent';
import { ContentObserver } from '../observer/index.js';
import { ContentStore, type ContentStoreOptions } from '../store/index.js';
import { type ContentToolsOptions, createContentTools } from '../tools/index.js';

/** A tool result as Pi's `execute` returns it. */
export interface ToolResult {
  content: ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[];
  details: Record<string, unknown>;
}

/** The store, observer and content tools of a space, with a direct `execute` caller. */
export async function openTools(
  root: string,
  options: Omit<ContentStoreOptions, 'root'> = {},
  toolOptions: Pick<ContentToolsOptions, 'skillFiles' | 'searchLimits'> = {},
) {
  const store = await ContentStore.open({ root, ...options });
  const observer = new ContentObserver(store);
  let next = 0;
  const tools = createContentTools({
    store,
    observer,
    newOperationId: () => `op-${++next}`,
    ...toolOptions,
  });
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool])) as Record<
    string,
    ToolDefinition
  >;
  const ctx = { cwd: root } as ExtensionContext;
  const call = async (name: string, params: Record<string, unknown>, signal?: AbortSignal) => {
    const tool = byName[name];
    if (tool === undefined) throw new Error(`no tool ${name}`);
    const args = tool.prepareArguments ? tool.prepareArguments(params) : params;
    return (await tool.execute(
      `call-${name}`,
      args as never,
      signal,
      undefined,
      ctx,
    )) as unknown as ToolResult;
  };
  /** Marks files as read in full (as if the agent had read them). */
  const observe = async (...paths: string[]) => {
    for (const path of paths) observer.recordRead(await store.read(path), { partial: false });
  };
  return { store, observer, tools: byName, call, observe };
}

/** The text of a tool result. */
export const textOf = (result: ToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
