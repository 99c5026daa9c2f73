import { type RepaClient, runToEnd } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { type Graded, GradedPassage, GradeList } from './grade-view.js';
import { describeError } from './panels.js';

/** The tries of one tutor check: the tutor run checked, each try's grade and what was typed. */
interface CheckState {
  tutor: string;
  grades: Graded[];
  typed: string[];
}

/** A tutor check of the composer's text: its state, and `check` to send one. */
export interface TutorCheck {
  state: CheckState | undefined;
  busy: boolean;
  message: string;
  /** Checks `answer` against the last tutor reply; true once it was graded. */
  check: (answer: string) => Promise<boolean>;
}

/**
 * "Check my answer" (spec R114): the answer is checked (`study.check`, `study.graded`) against
 * the passage the session's last tutor reply cites; after a first try graded Again or Hard the
 * next check is its second try.
 */
export function useTutorCheck(
  client: RepaClient,
  space: string,
  sessionId: string | undefined,
): TutorCheck {
  const [state, setState] = useState<CheckState | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  useEffect(() => setState(undefined), [sessionId]);
  const check = async (answer: string): Promise<boolean> => {
    if (busy || answer === '') return false;
    setBusy(true);
    setMessage('');
    try {
      const { runs } = sessionId
        ? await client.request('run.list', { space, sessionId, limit: 50, brief: true })
        : { runs: [] };
      // The last tutor reply: the newest succeeded run in tutor mode (not a steer).
      const tutor = runs.find(
        (run) =>
          run.targetRunId === undefined &&
          run.status === 'succeeded' &&
          run.modelSettings?.studyMode === 'tutor',
      );
      if (tutor === undefined) {
        setMessage('No tutor reply to check yet: ask the tutor, then check your answer.');
        return false;
      }
      const first = state?.tutor === tutor.runId ? state.grades.at(-1) : undefined;
      const second = first !== undefined && !first.final;
      const run = await runToEnd(client, () =>
        client.request('study.check', {
          runId: tutor.runId,
          answer,
          requestId: crypto.randomUUID(),
          ...(second ? { after: first.runId } : {}),
        }),
      );
      const graded = await client.request('study.graded', { runId: run.runId });
      setState(
        second && state
          ? { ...state, grades: [...state.grades, graded], typed: [...state.typed, answer] }
          : { tutor: tutor.runId, grades: [graded], typed: [answer] },
      );
      return true;
    } catch (error) {
      setMessage(describeError(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { state, busy, message, check };
}

/** The check under the composer: each try's grade and hint, then the passage once final. */
export function TutorCheckView({ check }: { check: TutorCheck }) {
  const { state, busy, message } = check;
  const last = state?.grades.at(-1);
  return html`<section class="tutor-check" aria-label="Check of your answer" aria-live="polite">
    <p class="panel-message" role="status">${busy ? 'Grading your answer against the passage…' : message}</p>
    ${state ? html`<${GradeList} grades=${state.grades} typed=${state.typed} />` : ''}
    ${
      last === undefined
        ? ''
        : last.final && last.passage
          ? html`<${GradedPassage} passage=${last.passage} /><p class="meta">Recorded in the study log.</p>`
          : html`<p class="meta">Second try: write it in the message box and check again.</p>`
    }
  </section>`;
}
