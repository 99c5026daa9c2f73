import type { PromptInstructionFile } from './assemble-system-prompt-input.js';
import { escapeXml, xmlTag } from './xml-text.js';

/** The `projectInstructions` section: each file's text verbatim, tagged with its path. */
export function projectInstructionsSection(files: readonly PromptInstructionFile[]): string {
  const parts = [
    "The space's project instruction files follow. Follow them unless the user asks otherwise.",
    ...files.map((file) =>
      xmlTag('instruction_file', file.text, ` path="${escapeXml(file.path)}"`),
    ),
  ];
  return xmlTag('project_instructions', parts.join('\n\n'));
}
