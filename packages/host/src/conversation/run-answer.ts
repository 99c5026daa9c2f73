import type { AgentSession, SessionManager } from '@earendil-works/pi-coding-agent';
import type { ContentStore } from '@repa/content';
import type { AssembledSystemPrompt } from '@repa/prompt';
import { RepaError } from '@repa/protocol';
import { checkRunCitations } from '../sessions/index.js';
import type { ActiveRun } from './active-run.js';
import { cancelledOutcome, outcomeOf, type RunOutcome, withUsage } from './run-outcome.js';
import type { RunRequestInputs } from './run-preparation.js';

/** What a run's end is read against: its Pi session, the space's store, the model it fell back on. */
export interface RunEnd {
  session: AgentSession;
  sessionManager: SessionManager;
  store: ContentStore;
  fallback: Parameters<typeof outcomeOf>[3];
}

/**
 * A run that reached the end of Pi's loop: its outcome with the model and usage, the answer's
 * citations checked against what the run read (R60), and what was attached and restricted.
 */
export async function endedRunOutcome(
  end: RunEnd,
  prompt: AssembledSystemPrompt,
  run: ActiveRun,
  attached: RunRequestInputs['attached'],
): Promise<RunOutcome> {
  const { session, sessionManager, store, fallback } = end;
  const outcome = withUsage(
    outcomeOf(session, prompt, run, fallback),
    session,
    fallback.modelRuntime,
    run,
  );
  const citations =
    outcome.status === 'succeeded' && outcome.output
      ? await checkRunCitations(store, session, sessionManager, outcome.output)
      : [];
  return {
    ...outcome,
    ...(citations.length > 0 ? { citations } : {}),
    ...(attached ? { attachedSources: attached.sources } : {}),
    ...(run.restricted.length > 0 ? { restricted: run.restricted } : {}),
  };
}

/** A run that threw: cancelled when a cancel was asked, else failed with the error; with usage. */
export function thrownRunOutcome(
  session: AgentSession,
  modelRuntime: RunEnd['fallback']['modelRuntime'],
  run: ActiveRun,
  error: unknown,
): RunOutcome {
  const outcome: RunOutcome = run.cancelRequested
    ? cancelledOutcome(run.prompt)
    : { status: 'failed', error: RepaError.fromUnknown(error).toWire(), prompt: run.prompt };
  return withUsage(outcome, session, modelRuntime, run);
}
