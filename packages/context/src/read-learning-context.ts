import { readFile } from 'node:fs/promises';
import { RepaError } from '@repa/protocol';
import {
  type LearningContextView,
  learningContextFileSchema,
  learningContextPath,
} from './learning-context-file.js';

/**
 * Reads the space's current learning context from `<space>/.repa/learning-context.json`.
 * Returns `null` when the space has none (the file does not exist). Any other failure (unreadable
 * file, invalid JSON, wrong shape) throws `context_unavailable` naming the file and the problem, so
 * the host can fail the run before the user message enters Pi history (spec R31).
 */
export async function readLearningContext(spaceRoot: string): Promise<LearningContextView | null> {
  const file = learningContextPath(spaceRoot);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw unavailable(file, `cannot be read (${errorText(error)})`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unavailable(file, `is not valid JSON (${errorText(error)})`, error);
  }
  const parsed = learningContextFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
      )
      .join('; ');
    throw unavailable(file, `has the wrong shape (${problems})`, parsed.error);
  }
  const { revision, body, sources } = parsed.data;
  return { revision, body, sources };
}

function unavailable(file: string, problem: string, cause: unknown): RepaError {
  return new RepaError('context_unavailable', `The learning context file ${file} ${problem}.`, {
    fix: `Repair or remove ${file} (it must hold {"revision", "body", "sources"}), then submit again.`,
    details: { file, problem },
    cause,
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
