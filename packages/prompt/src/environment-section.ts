import type { PromptEnvironment } from './assemble-system-prompt-input.js';
import { xmlTag } from './xml-text.js';

/**
 * The `environment` section: the space, platform and date the caller supplied, and whether a
 * learning-context message will be provided (kept truthful to `prompts.learningContext`).
 */
export function environmentSection(
  environment: PromptEnvironment,
  learningContext: boolean,
): string {
  const lines = [
    `Space: ${environment.spaceName}`,
    `Space root: ${environment.spaceRoot}`,
    `Platform: ${environment.platform}`,
    `Date: ${environment.date}`,
    'Relative file paths are resolved against the space root.',
    learningContext
      ? 'Learning context: on. When the space has one, Repa adds it as a separate message whenever it is new or has changed; the most recent one is current.'
      : 'Learning context: off. No learning-context message is provided in this conversation.',
  ];
  return xmlTag('environment', lines.join('\n'));
}
