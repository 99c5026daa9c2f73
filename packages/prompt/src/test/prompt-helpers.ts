import type { PromptSectionReport } from '@repa/protocol';
import type { AssembleSystemPromptInput } from '../index.js';
import { goldenCaseNames, readGoldenInput } from './golden-cases.js';

// What the assembleSystemPrompt test files share.

/** The names of the golden cases. */
export const CASES = goldenCaseNames();

/** Pi 0.87.1 `getSystemMessageText` for `{ content: '', sections }`, restated (prompt is Pi-free). */
export function piRender(sections: Record<string, string | null>): string {
  return ['', ...Object.values(sections)]
    .filter((part): part is string => part !== null && part.length > 0)
    .join('\n\n');
}

/** The report's entry for section `name`. */
export function sectionOf(report: PromptSectionReport[], name: string): PromptSectionReport {
  const entry = report.find((section) => section.name === name);
  if (!entry) throw new Error(`no ${name} section in the report`);
  return entry;
}

/** A golden case's input, edited. */
export function withSettings(
  name: string,
  edit: (input: AssembleSystemPromptInput) => void,
): AssembleSystemPromptInput {
  const input = readGoldenInput(name);
  edit(input);
  return input;
}

/** Freezes the value and everything in it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
