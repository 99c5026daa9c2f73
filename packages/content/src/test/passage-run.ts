import { checkAnswerCitations, citationReadings } from '../citations/index.js';
import { type DraftRun, parsePassage, passageReadArguments } from '../study/index.js';
import { openTools } from './content-tools.js';

/**
 * A draft or quiz run over `passage` in the real space at `root`: the real read tool's result for
 * the passage (then for each of `alsoRead`), and `answer`'s citations checked against them.
 */
export async function passageRun(
  root: string,
  {
    passage,
    request,
    answer,
    runId,
    alsoRead = [],
  }: {
    passage: string;
    /** The run's request text (`draftRequestText`, `quizRequestText`). */
    request: string;
    answer: string;
    runId: string;
    alsoRead?: Record<string, unknown>[];
  },
) {
  const { store, call } = await openTools(root);
  const messages = [];
  for (const args of [passageReadArguments(parsePassage(passage)), ...alsoRead]) {
    messages.push({
      role: 'toolResult',
      toolName: 'read',
      isError: false,
      ...(await call('read', args)),
    });
  }
  const citations = await checkAnswerCitations(store, answer, citationReadings(messages));
  const run: DraftRun = { runId, request, output: answer, citations };
  return { store, run };
}
