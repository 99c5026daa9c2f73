import type { ModelDecision, RepaClient } from '@repa/protocol';
import { thinkingLevelSchema } from '@repa/protocol/schemas';
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

/** `value` with `picked` chosen for `key` (the model or the thinking level); empty: as set. */
export function withChoice(
  value: RunChoiceValue,
  key: keyof RunChoiceValue,
  picked: string,
): RunChoiceValue {
  const { [key]: _old, ...rest } = value;
  return picked ? { ...rest, [key]: picked } : rest;
}

/** The session settings that keep a choice (`settings.set` at the session level), in order. */
export function keptSettings(
  value: RunChoiceValue,
): ['model.id' | 'model.thinkingLevel', string][] {
  const kept: ['model.id' | 'model.thinkingLevel', string][] = [];
  if (value.model) kept.push(['model.id', value.model]);
  if (value.thinkingLevel) kept.push(['model.thinkingLevel', value.thinkingLevel]);
  return kept;
}

/** A model's name for people: the offline responder's, or the one the models list gives it. */
export function modelName(
  id: string | undefined,
  models: readonly { id: string; name: string }[],
): string | undefined {
  return id === 'repa-offline'
    ? 'local responder'
    : (models.find((model) => model.id === id)?.name ?? id);
}

/** The picker's summary: the model and thinking level the next request uses, and whose choice. */
export function choiceSummary(
  value: RunChoiceValue,
  next: ModelDecision | undefined,
  nameOf: (id: string | undefined) => string | undefined,
): string {
  return `${nameOf(value.model ?? next?.model) ?? '…'}, thinking ${value.thinkingLevel ?? next?.thinkingLevel ?? '…'}${
    value.model || value.thinkingLevel ? ' (this request only)' : ''
  }`;
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
  const nameOf = (id: string | undefined) => modelName(id, usable);
  const keep = async () => {
    if (!sessionId) return;
    try {
      for (const [key, chosen] of keptSettings(value)) {
        await client.request('settings.set', {
          space,
          sessionId,
          level: 'session',
          key,
          value: chosen,
        });
      }
      onChange({});
      setMessage('Kept for this session.');
      onKept();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const summary = choiceSummary(value, next, nameOf);
  return html`<details class="run-choice">
    <summary>Model: <span class="run-choice-summary">${summary}</span></summary>
    <div class="row">
      <label for="run-model">Model</label>
      <select id="run-model" value=${value.model ?? ''} onChange=${(event: Event) =>
        onChange(withChoice(value, 'model', (event.target as HTMLSelectElement).value))}>
        <option value="">As set (${nameOf(next?.model) ?? '…'})</option>
        ${usable.map((model) => html`<option value=${model.id}>${nameOf(model.id)}</option>`)}
      </select>
      <label for="run-thinking">Thinking</label>
      <select id="run-thinking" value=${value.thinkingLevel ?? ''} onChange=${(event: Event) =>
        onChange(withChoice(value, 'thinkingLevel', (event.target as HTMLSelectElement).value))}>
        <option value="">As set (${next?.thinkingLevel ?? '…'})</option>
        ${thinkingLevelSchema.options.map((level) => html`<option value=${level}>${level}</option>`)}
      </select>
      <button type="button" class="keep-choice" disabled=${!sessionId || !(value.model || value.thinkingLevel)} onClick=${() => void keep()}>Keep for this session</button>
    </div>
    <p class="meta">A choice here is for the next request only, unless you keep it for the session.</p>
    <p class="panel-message" role="status">${message}</p>
  </details>`;
}
