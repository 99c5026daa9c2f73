import type { PromptTool } from './assemble-system-prompt-input.js';
import { escapeXml, xmlTag } from './xml-text.js';

/**
 * The `tools` section: only the enabled tools, in the caller's order (R35), each with its one-line
 * snippet (its description when it has none: the full description already reaches the model with
 * the tool's schema, so repeating it here would only make every request longer). Texts and
 * guideline lines are trimmed; empty guidelines and a tool's repeated guidelines are dropped.
 */
export function toolsSection(tools: readonly PromptTool[]): string {
  const parts = ['These tools are enabled in this conversation; no others are available.'];
  for (const tool of tools) {
    const guidelines = [
      ...new Set((tool.promptGuidelines ?? []).map((line) => line.trim()).filter(Boolean)),
    ];
    const body = [(tool.snippet?.trim() || tool.description).trim()];
    if (guidelines.length > 0) {
      body.push('Guidelines:', ...guidelines.map((line) => `- ${line}`));
    }
    parts.push(xmlTag('tool', body.join('\n'), ` name="${escapeXml(tool.name)}"`));
  }
  return xmlTag('tools', parts.join('\n\n'));
}
