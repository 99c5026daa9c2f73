import { RATING_LABELS, type RepaClient, runToEnd, type V1Result } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Graded, GradedPassage, GradeList } from './grade-view.js';
import { describeError } from './panels.js';

type Quizzed = V1Result<'study.quizzed'>;

/** Where a quiz is: asking its questions, then done. */
interface QuizState {
  quiz: Quizzed;
  index: number;
  /** The grades of the current question so far (a first try, then the final one). */
  grades: Graded[];
  /** What the learner typed for each of those grades. */
  typed: string[];
  finals: Graded[];
}

/**
 * The Quiz beside the review: a passage and a count start a quiz run (`study.quiz`); each kept
 * question is answered in the learner's words and graded by a run against its cited lines
 * (`study.answer`, `study.graded`): the grade with what was missing, a hint and a second try
 * after Again or Hard, then the passage. After a final grade: n next, o the learner's own grade
 * (then 1–4), c makes the question a card. Keys act while focus is in the quiz and not typing.
 */
export function QuizView({ client, space }: { client: RepaClient; space: string }) {
  const [passage, setPassage] = useState('');
  const [count, setCount] = useState(3);
  const [state, setState] = useState<QuizState | undefined>(undefined);
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState('');
  const [message, setMessage] = useState('');
  const [choosing, setChoosing] = useState(false);
  const [carded, setCarded] = useState<string[]>([]);
  const result = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  const question = state?.quiz.questions[state.index];
  const last = state?.grades.at(-1);
  const final = last?.final === true;
  // The answer field (or, after a final grade, the result with its keys) takes the focus once
  // nothing is being done: a field is disabled while a run writes or grades.
  useEffect(() => {
    if (busy !== '') return;
    if (final) result.current?.focus();
    else input.current?.focus();
  }, [state?.index, state?.grades.length, final, busy]);

  const work = async (doing: string, task: () => Promise<void>) => {
    if (busy !== '') return;
    setBusy(doing);
    setMessage('');
    try {
      await task();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy('');
    }
  };

  const start = () =>
    work('Writing the questions…', async () => {
      setState(undefined);
      const { session } = await client.request('session.create', {
        space,
        title: `study quiz ${passage}`,
      });
      const run = await runToEnd(client, () =>
        client.request('study.quiz', {
          space,
          sessionId: session.sessionId,
          requestId: crypto.randomUUID(),
          passage: passage.trim(),
          count,
        }),
      );
      const quiz = await client.request('study.quizzed', { runId: run.runId });
      setState({ quiz, index: 0, grades: [], typed: [], finals: [] });
      setCarded([]);
      if (quiz.questions.length === 0)
        setMessage('The model wrote no question whose citation verified.');
    });

  const submit = () =>
    work('Grading against the passage…', async () => {
      if (state === undefined || question === undefined) return;
      const after = last && !last.final ? { after: last.runId } : {};
      const run = await runToEnd(client, () =>
        client.request('study.answer', {
          runId: state.quiz.runId,
          question: question.id,
          answer,
          requestId: crypto.randomUUID(),
          ...after,
        }),
      );
      const graded = await client.request('study.graded', { runId: run.runId });
      setAnswer('');
      setState({
        ...state,
        grades: [...state.grades, graded],
        typed: [...state.typed, answer],
        finals: graded.final ? [...state.finals, graded] : state.finals,
      });
    });

  const next = () => {
    if (state === undefined) return;
    setChoosing(false);
    setState({ ...state, index: state.index + 1, grades: [], typed: [] });
  };
  const override = (grade: number) =>
    work('Recording your grade…', async () => {
      if (!last?.answer) return;
      const done = await client.request('study.override', { space, answer: last.answer.id, grade });
      setChoosing(false);
      setMessage(
        `Recorded your grade ${RATING_LABELS[done.grade - 1]} beside ${RATING_LABELS[done.given - 1]}.`,
      );
    });
  const card = () =>
    work('Saving the card…', async () => {
      if (state === undefined || question === undefined || carded.includes(question.id)) return;
      const saved = await client.request('study.accept', {
        runId: state.quiz.runId,
        cards: [{ id: question.id }],
      });
      setCarded([...carded, question.id]);
      setMessage(`Saved as a card in ${saved.note}.`);
    });

  const onKeyDown = (event: KeyboardEvent) => {
    if (!final || event.ctrlKey || event.metaKey || event.altKey) return;
    if ((event.target as HTMLElement).closest('input, textarea')) return;
    if (choosing && /^[1-4]$/u.test(event.key)) void override(Number(event.key));
    else if (event.key === 'o') setChoosing(true);
    else if (event.key === 'c') void card();
    else if (event.key === 'n') next();
    else return;
    event.preventDefault();
  };

  const total = state?.quiz.questions.length ?? 0;
  const by = (help: string) => state?.finals.filter((one) => one.answer?.help === help).length ?? 0;
  return html`<section class="panel quiz-view" aria-labelledby="quiz-heading" onKeyDown=${onKeyDown}>
    <h2 id="quiz-heading">Quiz</h2>
    <form class="row quiz-start" onSubmit=${(event: Event) => {
      event.preventDefault();
      void start();
    }}>
      <label>Passage <input type="text" name="passage" placeholder="notes/x.md:12-18" value=${passage} required onInput=${(event: Event) => setPassage((event.target as HTMLInputElement).value)} /></label>
      <label>Questions <input type="number" name="count" min="1" max="10" value=${count} onInput=${(event: Event) => setCount(Number((event.target as HTMLInputElement).value) || 3)} /></label>
      <button type="submit" disabled=${busy !== ''}>Start quiz</button>
    </form>
    <p class="panel-message" role="status">${busy || message}</p>
    ${
      state && state.quiz.dropped.length > 0
        ? html`<ul class="meta quiz-dropped">${state.quiz.dropped.map(
            (one) =>
              html`<li>Dropped question ${one.index}: ${one.reason.replaceAll('_', ' ')} (${one.explanation})</li>`,
          )}</ul>`
        : ''
    }
    ${
      state === undefined || total === 0
        ? ''
        : question === undefined
          ? html`<p class="quiz-summary">Answered ${state.finals.length} of ${total}: ${by('none')} without help, ${by('hint')} after a hint, ${by('passage')} with the passage (recorded in the study log).</p>`
          : html`<article class="quiz-question" data-question=${question.id} aria-label=${`Question ${state.index + 1} of ${total}`}>
              <p class="study-progress"><strong>Question ${state.index + 1} of ${total}</strong> <span class="meta">· <code>${question.cite}</code></span></p>
              <p class="study-front">${question.question}</p>
              <${GradeList} grades=${state.grades} typed=${state.typed} />
              ${
                final
                  ? html`<div class="quiz-result" ref=${result} tabIndex="-1">
                      ${last?.passage ? html`<${GradedPassage} passage=${last.passage} />` : ''}
                      ${
                        choosing
                          ? html`<div class="row study-ratings" role="group" aria-label="Your own grade">${RATING_LABELS.map(
                              (label, at) =>
                                html`<button type="button" data-grade=${at + 1} onClick=${() => void override(at + 1)}>${at + 1} ${label}</button>`,
                            )}</div>`
                          : ''
                      }
                      <div class="row">
                        <button type="button" class="quiz-next" onClick=${next}>Next (n)</button>
                        <button type="button" class="quiz-override" onClick=${() => setChoosing(true)}>My own grade (o)</button>
                        <button type="button" class="quiz-card" disabled=${carded.includes(question.id)} onClick=${() => void card()}>Make a card (c)</button>
                      </div>
                    </div>`
                  : html`<form class="row" onSubmit=${(event: Event) => {
                      event.preventDefault();
                      void submit();
                    }}>
                      <label class="quiz-answer">${last ? 'Second try' : 'Your answer'} <input type="text" name="answer" ref=${input} value=${answer} disabled=${busy !== ''} onInput=${(event: Event) => setAnswer((event.target as HTMLInputElement).value)} /></label>
                      <button type="submit" disabled=${busy !== ''}>Answer</button>
                    </form>`
              }
            </article>`
    }
  </section>`;
}
