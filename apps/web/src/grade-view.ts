import { RATING_LABELS, type V1Result } from '@repa/protocol';
import { html } from 'htm/preact';

/** A grade as `study.graded` gives it (of a quiz answer or a tutor check). */
export type Graded = V1Result<'study.graded'>;

/** A grade in words: `Again: missing "…"` and the help that came before it. */
export function GradeLine({ graded }: { graded: Graded }) {
  const label = RATING_LABELS[graded.grade - 1];
  return html`<p class=${`quiz-grade ${graded.grade >= 3 ? 'good' : 'weak'}`}>
    <strong>${label}</strong>${graded.missing === '' ? '' : html`: missing <q>${graded.missing}</q>`}
    ${graded.answer ? html` <span class="meta">(help: ${graded.answer.help})</span>` : ''}
  </p>`;
}

/** The learner's answers so far with their grades, each hint under its grade. */
export function GradeList({ grades, typed }: { grades: Graded[]; typed: string[] }) {
  return grades.map(
    (
      graded,
      at,
    ) => html`<p class="meta">Your answer: ${typed[at]}</p><${GradeLine} graded=${graded} />
      ${graded.hint ? html`<p class="quiz-hint">Hint: ${graded.hint}</p>` : ''}`,
  );
}

/** The passage a final grade was graded against: its cite and its lines. */
export function GradedPassage({ passage }: { passage: { cite: string; quote: string } }) {
  return html`<figure class="study-source"><figcaption>Source: <code>${passage.cite}</code></figcaption><blockquote class="study-lines">${passage.quote}</blockquote></figure>`;
}
