import {
  type ContextGetResult,
  type ModelDecision,
  type RepaClient,
  RepaError,
  type V1Params,
  type V1Result,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { localTime } from './local-time.js';
import { renderMarkdown } from './markdown.js';
import { LEVEL_NAMES } from './setting-control.js';

/** An error as one line for people: message, fix and code. */
export function describeError(error: unknown): string {
  if (RepaError.isInstance(error)) {
    return `${error.message}${error.fix ? ` ${error.fix}` : ''} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

interface PanelProps {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  /** Grows whenever something the panel shows may have changed (a run ended). */
  version: number;
}

/** Each source's state since the build, for people. */
const SOURCE_STATE: Record<string, string> = {
  unchanged: 'unchanged since built',
  changed: 'changed since built',
  vanished: 'gone since built',
  unversioned: 'no record to compare',
};

/** How often the open page reads the context's source states again. */
const CONTEXT_POLL_MS = 2000;

/** When a context was written, in words (its revision is for the revision check only). */
function writtenAt(updatedAt: string | null | undefined): string {
  return updatedAt ? `updated ${localTime(updatedAt)}` : 'saved';
}

/**
 * Builds the learning context (`context.build`) under a fresh build id, handed to `onStart` (a
 * Cancel needs it), with each of its progress messages passed to `onProgress`.
 */
export async function buildContext(
  client: RepaClient,
  params: Omit<V1Params<'context.build'>, 'buildId'>,
  onProgress: (message: string) => void,
  onStart?: (buildId: string) => void,
): Promise<V1Result<'context.build'>> {
  const buildId = crypto.randomUUID();
  onStart?.(buildId);
  const stop = client.on('context.progress', (progress) => {
    if (progress.buildId === buildId) onProgress(progress.message);
  });
  try {
    return await client.request('context.build', { ...params, buildId });
  } finally {
    stop();
  }
}

/**
 * The learning context: shown with the state of each source (a changed one offers a rebuild),
 * edited with a revision check, built from chosen documents on the space's model (cancellable),
 * and cleared after a confirmation.
 */
export function ContextPanel({
  client,
  space,
  sessionId,
  version,
  next,
}: PanelProps & { next: ModelDecision | undefined }) {
  const [state, setState] = useState<ContextGetResult | undefined>();
  const [draft, setDraft] = useState<string | undefined>();
  const [sources, setSources] = useState('');
  const [instructions, setInstructions] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [building, setBuilding] = useState<string | undefined>();
  const shownRevision = useRef<string | undefined>(undefined);

  const load = async () => {
    try {
      setState(await client.request('context.get', { space, ...(sessionId ? { sessionId } : {}) }));
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void load();
    // Back from editing a note elsewhere: its state since the build is read again.
    const again = () => void load();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [space, sessionId, version]);
  useEffect(() => {
    // A source changing while the page is open shows as changed within a few seconds: the daemon
    // pushes no file changes, so the context (a stat per source) is read again while in view.
    // A new revision (written elsewhere, or while this read was under way) is read in full.
    let reading = false;
    let stopped = false;
    const timer = window.setInterval(() => {
      if (reading || document.visibilityState !== 'visible') return;
      reading = true;
      client
        .request('context.get', { space })
        .then((got) => {
          if (stopped) return;
          if (got.context?.revision !== shownRevision.current) void load();
          else setState((shown) => shown && { ...shown, context: got.context });
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
        });
    }, CONTEXT_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [space, sessionId]);

  const context = state?.context ?? null;
  shownRevision.current = context?.revision;
  const write = async (body: string, from: string[], done: string) => {
    setBusy(true);
    try {
      await client.request('context.set', {
        space,
        body,
        sources: from,
        expectedRevision: context?.revision ?? null,
      });
      await load();
      setDraft(undefined);
      setMessage(done);
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const save = async (event: Event) => {
    event.preventDefault();
    if (draft !== undefined) await write(draft, context?.sources ?? [], 'Saved.');
  };
  const clear = async () => {
    if (
      !window.confirm("Empty the learning context? Every session's next run is told it is empty.")
    ) {
      return;
    }
    await write('', [], 'The learning context is empty now.');
  };
  const runBuild = async (chosen: string[]) => {
    if (chosen.length === 0) {
      setMessage('Name at least one document of the space to build from.');
      return;
    }
    setBusy(true);
    try {
      const result = await buildContext(
        client,
        {
          space,
          sources: chosen,
          ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
          expectedRevision: context?.revision ?? null,
        },
        setMessage,
        setBuilding,
      );
      await load();
      setMessage(
        `Built with ${result.model}${result.extractive ? ' (headings and first sentences, no language model)' : ''}.`,
      );
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBuilding(undefined);
      setBusy(false);
    }
  };
  const build = (event: Event) => {
    event.preventDefault();
    void runBuild(
      sources
        .split(/[,\n]/)
        .map((source) => source.trim())
        .filter((source) => source !== ''),
    );
  };
  const cancelBuild = async () => {
    if (building)
      await client.request('context.cancel', { buildId: building }).catch(() => undefined);
  };
  const stale = (context?.sourceStates ?? []).filter(
    (source) => source.state === 'changed' || source.state === 'vanished',
  );

  return html`<section class="panel" aria-labelledby="context-heading">
    <h2 id="context-heading">Learning context</h2>
    ${
      state?.provided
        ? html`<p class="meta">
            ${state.provided.value ? 'Given to the next run' : 'Not given to runs'}${
              state.provided.source === 'default'
                ? '.'
                : html` (the setting for <span class="source" data-source=${state.provided.source}>${LEVEL_NAMES[state.provided.source] ?? state.provided.source}</span>).`
            }
          </p>`
        : ''
    }
    ${state?.ignored ? html`<p class="notice">${state.ignored}</p>` : ''}
    ${
      draft === undefined
        ? html`
            ${
              context && (context.body !== '' || context.sources.length > 0)
                ? html`<div class="context-body markdown" dangerouslySetInnerHTML=${{ __html: renderMarkdown(context.body) }}></div>
                    <p class="meta"><span class="context-revision" title=${`Revision ${context.revision}`}>${writtenAt(context.updatedAt)}</span>${
                      context.sources.length > 0 ? ` · from ${context.sources.join(', ')}` : ''
                    }</p>
                    ${
                      (context.sourceStates ?? []).length > 0
                        ? html`<ul class="context-sources">
                            ${(context.sourceStates ?? []).map(
                              (source) => html`<li data-state=${source.state}>
                                <code>${source.path}</code> <span class=${source.state === 'unchanged' ? 'meta' : 'stale'}>${SOURCE_STATE[source.state] ?? source.state}</span>
                              </li>`,
                            )}
                          </ul>`
                        : ''
                    }
                    ${
                      stale.length > 0
                        ? html`<button type="button" class="rebuild" disabled=${busy} onClick=${() =>
                            void runBuild(
                              context.sources.filter(
                                (path) =>
                                  !stale.some(
                                    (source) => source.path === path && source.state === 'vanished',
                                  ),
                              ),
                            )}>Rebuild from its sources</button>`
                        : ''
                    }`
                : html`<p class="meta">${
                    context
                      ? 'The learning context is empty.'
                      : 'This space has no learning context yet.'
                  }</p>`
            }
            <button type="button" class="edit-context" onClick=${() => setDraft(context?.body ?? '')}>Edit</button>
            ${
              context && context.body !== ''
                ? html`<button type="button" class="clear-context" disabled=${busy} onClick=${() => void clear()}>Clear</button>`
                : ''
            }`
        : html`<form onSubmit=${save}>
            <label for="context-draft">Learning context (Markdown)</label>
            <textarea id="context-draft" rows="8" value=${draft} onInput=${(event: Event) =>
              setDraft((event.target as HTMLTextAreaElement).value)}></textarea>
            <div class="row">
              <button type="submit" disabled=${busy}>Save context</button>
              <button type="button" onClick=${() => setDraft(undefined)}>Discard</button>
            </div>
          </form>`
    }
    <details>
      <summary>Build from documents</summary>
      <form onSubmit=${build}>
        <label for="context-sources">Documents (space-relative paths, comma-separated)</label>
        <input id="context-sources" value=${sources} onInput=${(event: Event) =>
          setSources((event.target as HTMLInputElement).value)} />
        <label for="context-instructions">Focus (optional)</label>
        <input id="context-instructions" value=${instructions} onInput=${(event: Event) =>
          setInstructions((event.target as HTMLInputElement).value)} />
        <button type="submit" disabled=${busy}>Build context</button>
        ${building ? html`<button type="button" class="cancel-build" onClick=${() => void cancelBuild()}>Cancel build</button>` : ''}
        ${next ? html`<p class="meta">Builds with the space's model: ${next.offline ? 'the local responder (headings and first sentences)' : next.model}.</p>` : ''}
      </form>
    </details>
    <p class="panel-message" role="status">${message}</p>
  </section>`;
}
