import type { ToolDefinition } from '@earendil-works/pi-coding-agent';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { createContentEditTool } from './edit-tool.js';
import { createContentFindTool } from './find-tool.js';
import { createContentGrepTool } from './grep-tool.js';
import { holdingSpace } from './holding-space.js';
import { createContentLsTool } from './ls-tool.js';
import { createContentReadTool } from './read-tool.js';
import type { ContentToolsOptions } from './tool-options.js';
import { createContentWriteTool } from './write-tool.js';

/**
 * The content tools of one space for one host: `read`, `write`, `edit` (Pi's own definitions with
 * all I/O through the ContentStore), `apply_patch`, and the read-only `ls`, `find` and `grep`
 * (Pi's schemas, searching in process through the space's scope rules). Pass them to Pi as
 * `customTools`; they replace Pi's built-in tools of the same names. Each call holds the space
 * shared, so none runs while a command of the `bash` tool does.
 */
export function createContentTools(options: ContentToolsOptions): ToolDefinition[] {
  return [
    createContentReadTool(options),
    createContentWriteTool(options),
    createContentEditTool(options),
    createApplyPatchTool(options),
    createContentLsTool(options),
    createContentFindTool(options),
    createContentGrepTool(options),
  ].map((tool) => holdingSpace(options.store.root, 'shared', tool));
}
