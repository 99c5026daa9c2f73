import type { PromptEnvironment, PromptTool } from './assemble-system-prompt-input.js';
import { escapeXml, xmlTag } from './xml-text.js';

/** The tools that find things in the space, in the order the environment names them. */
const FINDING_TOOLS = ['ls', 'find', 'grep'];

function listed(names: readonly string[]): string {
  return names.length === 1
    ? (names[0] as string)
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1) as string}`;
}

/**
 * The `environment` section: the space, platform and date the caller supplied, which enabled
 * tools find things in the space (never a listing of its files: that would change with every file
 * and break the prompt cache), and whether a learning-context message will be provided (kept
 * truthful to `prompts.learningContext`).
 */
export function environmentSection(
  environment: PromptEnvironment,
  learningContext: boolean,
  tools: readonly PromptTool[] = [],
): string {
  const enabled = new Set(tools.map((tool) => tool.name));
  const finding = FINDING_TOOLS.filter((name) => enabled.has(name));
  const lines = [
    `Space: ${environment.spaceName}`,
    `Space root: ${environment.spaceRoot}`,
    `Platform: ${environment.platform}`,
    `Date: ${environment.date}`,
    'Relative file paths are resolved against the space root.',
    ...(finding.length > 0
      ? [
          `The space's files are not listed here: use ${escapeXml(listed(finding))} to find what the space holds before reading it.`,
        ]
      : []),
    learningContext
      ? 'Learning context: on. When the space has one, Repa adds it as a separate message whenever it is new or has changed; the most recent one is current. Only the learner changes it: to suggest a change, propose the new text in your answer.'
      : 'Learning context: off. No learning-context message is provided in this conversation.',
  ];
  return xmlTag('environment', lines.join('\n'));
}
