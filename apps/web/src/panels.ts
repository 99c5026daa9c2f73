import {
  type ContextGetResult,
  coerceSettingValue,
  type RepaClient,
  RepaError,
  type RunInfo,
  SETTING_ITEMS,
  type SettingItemView,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from './markdown.js';

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

/** The learning context: shown, edited with a revision check, built from chosen documents. */
export function ContextPanel({ client, space, sessionId, version }: PanelProps) {
  const [state, setState] = useState<ContextGetResult | undefined>();
  const [draft, setDraft] = useState<string | undefined>();
  const [sources, setSources] = useState('');
  const [instructions, setInstructions] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      setState(await client.request('context.get', { space, ...(sessionId ? { sessionId } : {}) }));
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void load();
  }, [space, sessionId, version]);

  const context = state?.context ?? null;
  const save = async (event: Event) => {
    event.preventDefault();
    if (draft === undefined) return;
    setBusy(true);
    try {
      const { revision } = await client.request('context.set', {
        space,
        body: draft,
        sources: context?.sources ?? [],
        expectedRevision: context?.revision ?? null,
      });
      await load();
      setDraft(undefined);
      setMessage(`Saved (revision ${revision.slice(0, 12)}).`);
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const build = async (event: Event) => {
    event.preventDefault();
    const chosen = sources
      .split(/[,\n]/)
      .map((source) => source.trim())
      .filter((source) => source !== '');
    if (chosen.length === 0) {
      setMessage('Name at least one document of the space to build from.');
      return;
    }
    setBusy(true);
    const buildId = crypto.randomUUID();
    const stop = client.on('context.progress', (progress) => {
      if (progress.buildId === buildId) setMessage(progress.message);
    });
    try {
      const result = await client.request('context.build', {
        space,
        buildId,
        sources: chosen,
        ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
        expectedRevision: context?.revision ?? null,
      });
      await load();
      setMessage(`Built with ${result.model} (revision ${result.revision.slice(0, 12)}).`);
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      stop();
      setBusy(false);
    }
  };

  return html`<section class="panel" aria-labelledby="context-heading">
    <h2 id="context-heading">Learning context</h2>
    ${
      state?.provided
        ? html`<p class="meta">
            ${state.provided.value ? 'Given to the next run' : 'Not given to runs'} (source:
            <span class="source">${state.provided.source}</span>)
          </p>`
        : ''
    }
    ${
      draft === undefined
        ? html`
            ${
              context
                ? html`<div class="context-body markdown" dangerouslySetInnerHTML=${{ __html: renderMarkdown(context.body) }}></div>
                    <p class="meta">Revision <code class="context-revision">${context.revision.slice(0, 12)}</code>${
                      context.sources.length > 0 ? ` · from ${context.sources.join(', ')}` : ''
                    }</p>`
                : html`<p class="meta">This space has no learning context yet.</p>`
            }
            <button type="button" onClick=${() => setDraft(context?.body ?? '')}>Edit</button>`
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
      </form>
    </details>
    <p class="panel-message" role="status">${message}</p>
  </section>`;
}

const LEVELS = ['application', 'space', 'session'] as const;
type Level = (typeof LEVELS)[number];

/**
 * The value typed into the form, as the item's type wants it: the protocol's coercion (the CLI's
 * too); an emptied box of an item whose default is `null` goes back to `null`.
 */
function parseValue(item: SettingItemView, text: string): unknown {
  if (text === '' && item.defaultValue === null) return null;
  return coerceSettingValue(item.key, text);
}

const DESCRIBED = new Map(SETTING_ITEMS.map((entry) => [entry.key, entry]));

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function SettingRow({
  item,
  levels,
  onSet,
  onReset,
}: {
  item: SettingItemView;
  levels: Level[];
  onSet: (item: SettingItemView, level: Level, value: unknown) => Promise<void>;
  onReset: (item: SettingItemView, level: Level) => Promise<void>;
}) {
  const [level, setLevel] = useState<Level>(levels.includes('space') ? 'space' : 'application');
  const [text, setText] = useState(show(item.value ?? ''));
  const id = `setting-${item.key.replace(/[^a-zA-Z0-9]/g, '-')}`;
  const boolean = typeof (item.defaultValue ?? item.value) === 'boolean';
  return html`<li class="setting" data-key=${item.key}>
    <div class="setting-head">
      <code>${item.key}</code> = <span class="setting-value">${show(item.value)}</span>
      <span class="source" data-source=${item.source}>${item.source}</span>
    </div>
    ${
      DESCRIBED.has(item.key)
        ? html`<p class="setting-about">${DESCRIBED.get(item.key)?.description}
            <span class="setting-values">Values: ${DESCRIBED.get(item.key)?.values}</span></p>`
        : ''
    }
    <dl class="overrides">
      ${LEVELS.map(
        (name) =>
          html`<div data-level=${name}><dt>${name}</dt><dd>${
            item.overrides[name] ? show(item.overrides[name]?.value) : '—'
          }</dd></div>`,
      )}
    </dl>
    <form class="row" onSubmit=${(event: Event) => {
      event.preventDefault();
      void onSet(item, level, parseValue(item, text));
    }}>
      <label for=${`${id}-level`} class="visually-hidden">Level for ${item.key}</label>
      <select id=${`${id}-level`} value=${level} onChange=${(event: Event) =>
        setLevel((event.target as HTMLSelectElement).value as Level)}>
        ${levels.map((name) => html`<option value=${name}>${name}</option>`)}
      </select>
      <label for=${`${id}-value`} class="visually-hidden">Value for ${item.key}</label>
      ${
        boolean
          ? html`<select id=${`${id}-value`} value=${text} onChange=${(event: Event) =>
              setText((event.target as HTMLSelectElement).value)}>
              <option value="true">true</option><option value="false">false</option>
            </select>`
          : html`<input id=${`${id}-value`} value=${text} onInput=${(event: Event) =>
              setText((event.target as HTMLInputElement).value)} />`
      }
      <button type="submit">Set</button>
      <button type="button" onClick=${() => void onReset(item, level)}>Reset</button>
    </form>
  </li>`;
}

/** Every settings item: effective value, its source level and the override at every level. */
export function SettingsPanel({ client, space, sessionId, version }: PanelProps) {
  const [items, setItems] = useState<SettingItemView[]>([]);
  const [message, setMessage] = useState('');
  const where = { space, ...(sessionId ? { sessionId } : {}) };
  const load = async () => {
    try {
      setItems((await client.request('settings.get', where)).items);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void load();
  }, [space, sessionId, version]);
  const levels: Level[] = sessionId ? [...LEVELS] : ['application', 'space'];
  const onSet = async (item: SettingItemView, level: Level, value: unknown) => {
    try {
      await client.request('settings.set', {
        ...where,
        level,
        key: item.key,
        value,
        expectedRevision: item.revisions[level],
      });
      await load();
      setMessage(`Set ${item.key} at the ${level} level.`);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const onReset = async (item: SettingItemView, level: Level) => {
    try {
      await client.request('settings.reset', {
        ...where,
        level,
        key: item.key,
        expectedRevision: item.revisions[level],
      });
      await load();
      setMessage(`Reset ${item.key} at the ${level} level.`);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  return html`<section class="panel" aria-labelledby="settings-heading">
    <h2 id="settings-heading">Settings</h2>
    <p class="panel-message" role="status">${message}</p>
    <ul class="settings">
      ${items.map(
        (item) =>
          html`<${SettingRow} key=${`${item.key}:${show(item.value)}:${item.source}`} item=${item} levels=${levels} onSet=${onSet} onReset=${onReset} />`,
      )}
    </ul>
  </section>`;
}

/**
 * The session's runs: those waiting in its queue with their place (cancelling one takes it out),
 * then every run newest first, each with its prompt-section report.
 */
export function RunsPanel({ client, space, sessionId, version }: PanelProps) {
  const [runs, setRuns] = useState<RunInfo[]>([]);
  const [message, setMessage] = useState('');
  const load = async () => {
    try {
      setRuns(
        (
          await client.request('run.list', {
            space,
            ...(sessionId ? { sessionId } : {}),
            limit: 20,
          })
        ).runs,
      );
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  useEffect(() => {
    void load();
  }, [space, sessionId, version]);
  const queued = runs
    .filter((run) => run.status === 'accepted' && run.queuePosition !== undefined)
    .sort((a, b) => (a.queuePosition ?? 0) - (b.queuePosition ?? 0));
  const cancel = async (run: RunInfo) => {
    try {
      await client.request('run.cancel', { runId: run.runId });
      setMessage(`Took “${run.input.text.slice(0, 40)}” out of the queue.`);
    } catch (error) {
      setMessage(describeError(error));
    }
    await load();
  };
  return html`<section class="panel" aria-labelledby="runs-heading">
    <h2 id="runs-heading">Runs</h2>
    <p class="panel-message" role="status">${message}</p>
    ${
      queued.length > 0
        ? html`<h3 id="queue-heading">Queued</h3>
            <ol class="queue-list" aria-labelledby="queue-heading">
              ${queued.map(
                (run) => html`<li data-run=${run.runId}>
                  <span class="queue-position">${run.queuePosition}.</span>
                  <span class="queue-text">${run.input.text.slice(0, 60)}</span>
                  <button type="button" class="cancel" aria-label=${`Cancel queued request ${run.queuePosition}: ${run.input.text.slice(0, 40)}`} onClick=${() => void cancel(run)}>Cancel</button>
                </li>`,
              )}
            </ol>`
        : ''
    }
    <ul class="runs">
      ${runs.map(
        (run) => html`<li data-run=${run.runId}>
          <details>
            <summary><span class=${`status-${run.status}`}>${
              run.queuePosition !== undefined ? `queued (${run.queuePosition})` : run.status
            }</span>${run.delivery === 'steer' || run.delivery === 'followUp' ? ` ${run.delivery}` : ''} ${run.input.text.slice(0, 60)}</summary>
            <p class="meta">${run.model ?? ''} · attempt ${run.attempt} · ${new Date(run.acceptedAt).toLocaleString()}</p>
            <ul class="sections">
              ${(run.promptSections ?? []).map(
                (section) => html`<li>
                  <code>${section.name}</code> ${section.included ? `included, ${section.chars} chars` : 'absent'} — ${section.reason}
                </li>`,
              )}
            </ul>
          </details>
        </li>`,
      )}
    </ul>
  </section>`;
}
