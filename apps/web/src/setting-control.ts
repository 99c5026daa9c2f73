import type { ModelInfo, SettingItem, SettingItemView } from '@repa/protocol';
import { OFFLINE_MODEL_LABEL, REPA_TOOL_NAMES } from '@repa/protocol';
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** A level a setting can be written at. */
export type Level = 'application' | 'space' | 'session';

/** Each level (and the built-in default) as the page names it. */
export const LEVEL_NAMES: Record<string, string> = {
  application: 'all spaces',
  space: 'this space',
  session: 'this session',
  default: 'built-in default',
};

/** The kind of control a settings item gets, from its schema. */
type Control =
  | { kind: 'switch' }
  | { kind: 'choice'; options: string[]; nullable: boolean }
  | { kind: 'number'; min?: number | undefined; max?: number | undefined }
  | { kind: 'text'; nullable: boolean }
  | { kind: 'model' }
  | { kind: 'tools' };

interface SchemaDef {
  type: string;
  innerType?: { _zod: { def: SchemaDef } };
  entries?: Record<string, string>;
}

/** The control of an item: a switch, a drop-down, a number, text, the model or the tool picker. */
function controlOf(item: SettingItem): Control {
  if (item.key === 'model.id') return { kind: 'model' };
  if (item.key === 'tools.enabled') return { kind: 'tools' };
  let def = item.schema._zod.def as unknown as SchemaDef;
  const nullable = def.type === 'nullable';
  while ((def.type === 'nullable' || def.type === 'optional') && def.innerType) {
    def = def.innerType._zod.def;
  }
  if (def.type === 'boolean') return { kind: 'switch' };
  if (def.type === 'enum')
    return { kind: 'choice', options: Object.values(def.entries ?? {}), nullable };
  if (def.type === 'number') {
    const { minValue, maxValue } = item.schema as unknown as { minValue: number; maxValue: number };
    const bound = (value: number | null | undefined) =>
      value === null || value === undefined || !Number.isFinite(value) ? undefined : value;
    return { kind: 'number', min: bound(minValue), max: bound(maxValue) };
  }
  return { kind: 'text', nullable };
}

/** A value in words: `null` as what it means for the item, `""` and `[]` as empty. */
export function describeValue(item: SettingItem, value: unknown): string {
  if (value === null) {
    if (item.key === 'model.id') return "the daemon's model";
    if (item.key === 'tools.enabled') return 'every tool';
    if (item.key === 'model.thinkingLevel') return "Pi's default";
    return 'built-in';
  }
  if (value === '') return 'empty (set on purpose)';
  if (Array.isArray(value)) {
    if (value.length > 0) return value.join(', ');
    return item.key === 'tools.enabled' ? 'no tools' : 'none';
  }
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

/** Backquoted words of a description as code, the rest as text. */
function Prose({ text }: { text: string }) {
  return text
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') ? html`<code>${part.slice(1, -1)}</code>` : part,
    );
}

/** What a row does: write a value or remove the level's own value. */
export interface RowActions {
  set(value: unknown): Promise<string | undefined>;
  reset(): Promise<string | undefined>;
}

/**
 * One settings item: its label and description, its value and where it comes from, the control
 * for the chosen level, and the error of the last change beside the control.
 */
export function SettingRow({
  declared,
  item,
  level,
  models,
  actions,
}: {
  declared: SettingItem;
  item: SettingItemView;
  level: Level;
  models: ModelInfo[];
  actions: RowActions;
}) {
  const control = controlOf(declared);
  const id = `setting-${item.key.replace(/[^a-zA-Z0-9]/g, '-')}`;
  // An item read at one level only (e.g. `daemon.idleMinutes`) is always written there.
  const at: Level = declared.appliesAt ?? level;
  const own = item.overrides[at];
  const shown = own ? own.value : item.value;
  const [error, setError] = useState<string | undefined>();
  const [draft, setDraft] = useState<string | undefined>();
  const [tools, setTools] = useState<string[] | undefined>();
  const run = async (action: Promise<string | undefined>) => {
    const failed = await action;
    setError(failed);
    if (failed === undefined) {
      setDraft(undefined);
      setTools(undefined);
    }
  };
  const described = `${id}-about ${id}-error`;
  const common = {
    id: `${id}-value`,
    'aria-describedby': described,
    'aria-invalid': error ? 'true' : undefined,
  };

  let field: unknown;
  if (control.kind === 'switch') {
    field = html`<label class="switch" for=${`${id}-value`}>
      <input type="checkbox" role="switch" ...${common} checked=${shown === true} onChange=${(
        event: Event,
      ) => void run(actions.set((event.target as HTMLInputElement).checked))} />
      <span>${shown === true ? 'On' : 'Off'}</span>
    </label>`;
  } else if (control.kind === 'choice' || control.kind === 'model') {
    const options: [string, string][] =
      control.kind === 'model'
        ? [
            ['', "The daemon's model (default)"],
            ...models
              .filter((model) => model.credentials || model.id === shown)
              .map((model): [string, string] => [
                model.id,
                model.offline ? OFFLINE_MODEL_LABEL : `${model.name} (${model.id})`,
              ]),
          ]
        : [
            ...(control.nullable ? [['', "Pi's default"] as [string, string]] : []),
            ...control.options.map((option): [string, string] => [option, option]),
          ];
    field = html`<select ...${common} value=${shown === null ? '' : String(shown)} onChange=${(
      event: Event,
    ) => {
      const value = (event.target as HTMLSelectElement).value;
      void run(actions.set(value === '' ? null : value));
    }}>
      ${options.map(([value, name]) => html`<option value=${value}>${name}</option>`)}
    </select>`;
  } else if (control.kind === 'number') {
    field = html`<form class="row" novalidate onSubmit=${(event: Event) => {
      event.preventDefault();
      void run(actions.set(Number(draft ?? shown)));
    }}>
      <input type="number" inputmode="numeric" ...${common} min=${control.min} max=${control.max} value=${draft ?? String(shown)} onInput=${(
        event: Event,
      ) => setDraft((event.target as HTMLInputElement).value)} />
      <button type="submit">Save</button>
    </form>`;
  } else if (control.kind === 'text') {
    field = html`<form novalidate onSubmit=${(event: Event) => {
      event.preventDefault();
      void run(actions.set(draft ?? (typeof shown === 'string' ? shown : '')));
    }}>
      <textarea rows="3" ...${common} value=${draft ?? (typeof shown === 'string' ? shown : '')} onInput=${(
        event: Event,
      ) => setDraft((event.target as HTMLTextAreaElement).value)}></textarea>
      <div class="row">
        <button type="submit">Save text</button>
        ${
          control.nullable
            ? html`<button type="button" class="use-default" onClick=${() => void run(actions.set(null))}>Use the built-in</button>`
            : ''
        }
      </div>
    </form>`;
  } else {
    const chosen = tools ?? (Array.isArray(shown) ? (shown as string[]) : null);
    field = html`<fieldset class="tools" aria-describedby=${described}>
      <legend class="visually-hidden">${declared.label}</legend>
      <label class="switch" for=${`${id}-value`}>
        <input type="checkbox" role="switch" ...${common} checked=${chosen === null} onChange=${(
          event: Event,
        ) =>
          (event.target as HTMLInputElement).checked
            ? void run(actions.set(null))
            : setTools(REPA_TOOL_NAMES.filter((name) => name !== 'bash'))} />
        <span>Every tool (the default)</span>
      </label>
      ${
        chosen !== null
          ? html`<div class="tool-choices">
              ${REPA_TOOL_NAMES.map(
                (name) => html`<label class="check" for=${`${id}-tool-${name}`}>
                  <input type="checkbox" id=${`${id}-tool-${name}`} checked=${chosen.includes(name)} onChange=${(
                    event: Event,
                  ) =>
                    setTools(
                      (event.target as HTMLInputElement).checked
                        ? [...chosen, name]
                        : chosen.filter((tool) => tool !== name),
                    )} />
                  <code>${name}</code>
                </label>`,
              )}
              <button type="button" class="save-tools" onClick=${() => void run(actions.set(chosen))}>Save tools</button>
            </div>`
          : ''
      }
    </fieldset>`;
  }

  return html`<li class="setting" data-key=${item.key}>
    <div class="setting-head">
      <label class="setting-label" for=${`${id}-value`}>${declared.label}</label>
      <span class="setting-value">${describeValue(declared, item.value)}</span>
      <span class="source" data-source=${item.source}>${LEVEL_NAMES[item.source] ?? item.source}</span>
    </div>
    <p class="setting-about" id=${`${id}-about`}>
      <${Prose} text=${declared.description} />
      ${item.ignored ? html` <strong>${item.ignored.reason}</strong>` : ''}
    </p>
    <div class="setting-control">${field}</div>
    <p class="setting-error" id=${`${id}-error`} role="alert">${error ?? ''}</p>
    <p class="meta setting-level" data-set=${own ? 'true' : 'false'}>
      ${
        own
          ? html`Set for ${LEVEL_NAMES[at]}: ${describeValue(declared, own.value)}.
              <button type="button" class="link reset" onClick=${() => void run(actions.reset())}>Remove ${LEVEL_NAMES[at]}’s value</button>`
          : `Not set for ${LEVEL_NAMES[at]}.`
      }
    </p>
  </li>`;
}
