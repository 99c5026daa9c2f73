import { type ModelDecision, type RepaClient, thinkingLevelSchema } from '@repa/protocol';
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { describeError } from './panels.js';
import { useModels } from './settings-view.js';

/** One run's own model and thinking level (`run.submit`'s `overrides`); empty: as set. */
export interface RunChoiceValue {
  model?: string;
  thinkingLevel?: (typeof thinkingLevelSchema.options)[number];
}

/** `run.submit`'s overrides for a choice, none when nothing was chosen. */
export function overridesOf(choice: RunChoiceValue): { overrides?: RunChoiceValue } {
  return choice.model || choice.thinkingLevel ? { overrides: choice } : {};
}

/**
 * The composer's model and thinking picker: what the next request uses (as set, or chosen here for
 * it alone), and a button keeping the choice for the session (its settings).
 */
export function RunChoice({
  client,
  space,
  sessionId,
  next,
  value,
  onChange,
  onKept,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  next: ModelDecision | undefined;
  value: RunChoiceValue;
  onChange: (value: RunChoiceValue) => void;
  onKept: () => void;
}) {
  const models = useModels(client, next?.model);
  const [message, setMessage] = useState('');
  const usable = models.filter((model) => model.credentials);
  const nameOf = (id: string | undefined) =>
    id === 'repa-offline'
      ? 'local responder'
      : (usable.find((model) => model.id === id)?.name ?? id);
  const keep = async () => {
    if (!sessionId) return;
    try {
      for (const [key, chosen] of [
        ['model.id', value.model],
        ['model.thinkingLevel', value.thinkingLevel],
      ] as const) {
        if (chosen) {
          await client.request('settings.set', {
            space,
            sessionId,
            level: 'session',
            key,
            value: chosen,
          });
        }
      }
      onChange({});
      setMessage('Kept for this session.');
      onKept();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const summary = `${nameOf(value.model ?? next?.model) ?? '…'}, thinking ${value.thinkingLevel ?? next?.thinkingLevel ?? '…'}${
    value.model || value.thinkingLevel ? ' (this request only)' : ''
  }`;
  return html`<details class="run-choice">
    <summary>Model: <span class="run-choice-summary">${summary}</span></summary>
    <div class="row">
      <label for="run-model">Model</label>
      <select id="run-model" value=${value.model ?? ''} onChange=${(event: Event) => {
        const model = (event.target as HTMLSelectElement).value;
        const { model: _old, ...rest } = value;
        onChange(model ? { ...rest, model } : rest);
      }}>
        <option value="">As set (${nameOf(next?.model) ?? '…'})</option>
        ${usable.map((model) => html`<option value=${model.id}>${nameOf(model.id)}</option>`)}
      </select>
      <label for="run-thinking">Thinking</label>
      <select id="run-thinking" value=${value.thinkingLevel ?? ''} onChange=${(event: Event) => {
        const level = (event.target as HTMLSelectElement).value as RunChoiceValue['thinkingLevel'];
        const { thinkingLevel: _old, ...rest } = value;
        onChange(level ? { ...rest, thinkingLevel: level } : rest);
      }}>
        <option value="">As set (${next?.thinkingLevel ?? '…'})</option>
        ${thinkingLevelSchema.options.map((level) => html`<option value=${level}>${level}</option>`)}
      </select>
      <button type="button" class="keep-choice" disabled=${!sessionId || !(value.model || value.thinkingLevel)} onClick=${() => void keep()}>Keep for this session</button>
    </div>
    <p class="meta">A choice here is for the next request only, unless you keep it for the session.</p>
    <p class="panel-message" role="status">${message}</p>
  </details>`;
}
