import { type StudyProgress, studyChangedText } from '@repa/protocol';

/** The most sources one line of the summary names. */
const MOST = 3;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Again given on a source: its cards' ratings and its answers' grades. */
const againOf = (one: StudyProgress) =>
  one.ratings.again + one.answers.none.again + one.answers.hint.again + one.answers.passage.again;

/** `a, b, c` and `…` when there are more. */
const named = (sources: readonly StudyProgress[], say: (one: StudyProgress) => string) =>
  `${sources.slice(0, MOST).map(say).join('; ')}${sources.length > MOST ? '; …' : ''}`;

/**
 * A short summary of `sources`' progress for the learning context (spec R113): what is due, what
 * is weakest (lowest recall, then most Again), which sources were never studied and which changed
 * since; only counts and paths read from the study log and the notes, nothing inferred. `null`
 * when there are no sources.
 */
export function studySummary(sources: readonly StudyProgress[]): string | null {
  if (sources.length === 0) return null;
  const lines = [
    "Repa's summary of the learner's study progress, counted from their study log (card ratings and graded answers) as of this message; nothing in it is inferred:",
  ];
  const due = sources.filter((one) => one.due > 0).sort((a, b) => b.due - a.due);
  const total = due.reduce((sum, one) => sum + one.due, 0);
  lines.push(
    total === 0
      ? '- Due now: no cards.'
      : `- Due now: ${plural(total, 'card')} (${named(due, (one) => `${one.source} ${one.due}`)}).`,
  );
  const weak = sources
    .filter((one) => one.recall !== null || againOf(one) > 0)
    .sort((a, b) => (a.recall ?? 1) - (b.recall ?? 1) || againOf(b) - againOf(a));
  if (weak.length > 0) {
    const say = (one: StudyProgress) => {
      const facts = [
        one.recall === null ? '' : `recall now ${Math.round(one.recall * 100)}%`,
        againOf(one) > 0 ? `${againOf(one)} Again` : '',
      ];
      return `${one.source} (${facts.filter((fact) => fact !== '').join(', ')})`;
    };
    lines.push(`- Weakest: ${named(weak, say)}.`);
  }
  const untouched = sources.filter((one) => one.lastStudied === null);
  if (untouched.length > 0) {
    lines.push(
      `- Never studied: ${named(untouched, (one) => `${one.source} (${plural(one.cards, 'card')})`)}.`,
    );
  }
  const changed = sources.filter((one) => one.sourceChanged + one.questionsChanged > 0);
  if (changed.length > 0) {
    const say = (one: StudyProgress) => `${one.source} (${studyChangedText(one)})`;
    lines.push(`- Source changed since written or asked: ${named(changed, say)}.`);
  }
  return lines.join('\n');
}
