import type { ModelDecision, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { RunModelLabel, type RunModelView } from './run-model.js';

/** The model and thinking level a space's next run uses (`models.next`), read again on `version`. */
export function useNextModel(
  client: RepaClient,
  space: string,
  sessionId: string | undefined,
  version: unknown,
): ModelDecision | undefined {
  const [next, setNext] = useState<ModelDecision | undefined>();
  useEffect(() => {
    if (space === '') return; // No space open yet: nothing to ask.
    let current = true;
    void client
      .request('models.next', { space, ...(sessionId ? { sessionId } : {}) })
      .then(({ choice }) => {
        if (current) setNext(choice);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [space, sessionId, version]);
  return next;
}

/** A decision as the model line shows it: the model, why it was chosen, the thinking level. */
export function nextModelView(next: ModelDecision): RunModelView {
  return { model: next.model, modelSource: next.source, thinkingLevel: next.thinkingLevel };
}

/** The line naming the model a decision chose, and why. */
export function NextModel({ next }: { next: ModelDecision | undefined }) {
  if (!next) return null;
  return html`<${RunModelLabel} view=${nextModelView(next)} />`;
}
