import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fixturePath } from '@repa/fixtures';
import type { PromptSectionReport } from '@repa/protocol';
import type { AssembleSystemPromptInput } from '../assemble-system-prompt-input.js';

/** Whether this run rewrites the goldens instead of comparing (`UPDATE_GOLDENS=1`). */
export const UPDATE_GOLDENS = process.env.UPDATE_GOLDENS === '1';

/** The names of every case under `fixtures/prompts/`, sorted. */
export function goldenCaseNames(): string[] {
  return readdirSync(fixturePath('prompts'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A case's `input.json`. */
export function readGoldenInput(name: string): AssembleSystemPromptInput {
  return JSON.parse(readFileSync(fixturePath('prompts', name, 'input.json'), 'utf8'));
}

/** A case's expected prompt text and section report, or `undefined` when not yet written. */
export function readGoldenExpected(
  name: string,
): { text: string; report: PromptSectionReport[] } | undefined {
  const textPath = fixturePath('prompts', name, 'expected.txt');
  const reportPath = fixturePath('prompts', name, 'expected-sections.json');
  if (!existsSync(textPath) || !existsSync(reportPath)) return undefined;
  return {
    text: readFileSync(textPath, 'utf8'),
    report: JSON.parse(readFileSync(reportPath, 'utf8')),
  };
}

/** Write a case's goldens (only under `UPDATE_GOLDENS=1`). */
export function writeGoldenExpected(name: string, text: string, report: PromptSectionReport[]) {
  writeFileSync(fixturePath('prompts', name, 'expected.txt'), text);
  writeFileSync(
    fixturePath('prompts', name, 'expected-sections.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
}
