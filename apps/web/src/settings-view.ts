import {
  type ModelInfo,
  type RepaClient,
  RepaError,
  SETTING_ITEMS,
  type SettingItemView,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { describeError } from './panels.js';
import { LEVEL_NAMES, type Level, SettingRow } from './setting-control.js';

const DECLARED = new Map(SETTING_ITEMS.map((entry) => [entry.key, entry]));

/** What a learner changes most comes first (the model and its thinking level); then as declared. */
const firstShown = (key: string) => (key.startsWith('model.') ? 0 : 1);

/** The models Pi knows (`models.list`), read again when `version` changes. */
export function useModels(client: RepaClient, version: unknown): ModelInfo[] {
  const [models, setModels] = useState<ModelInfo[]>([]);
  useEffect(() => {
    let current = true;
    void client
      .request('models.list', {})
      .then((listed) => {
        if (current) setModels(listed.models);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [version]);
  return models;
}

/**
 * The settings view: one level chosen for every change (this session, this space or all spaces),
 * then each item with a control of its type, its value and source, and its error beside it.
 */
export function SettingsView({
  client,
  space,
  sessionId,
  version,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  version: number;
}) {
  const [items, setItems] = useState<SettingItemView[]>([]);
  const [level, setLevel] = useState<Level>('space');
  const [message, setMessage] = useState('');
  const models = useModels(client, version);
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
  const levels: Level[] = sessionId
    ? ['session', 'space', 'application']
    : ['space', 'application'];
  const chosen = levels.includes(level) ? level : 'space';

  /** Runs a write; the error for the row, or undefined once the items are read again. */
  const write = async (item: SettingItemView, change: () => Promise<unknown>, done: string) => {
    try {
      await change();
      await load();
      setMessage(done);
      return undefined;
    } catch (error) {
      setMessage('');
      // A value the item's schema refuses: what it takes, in a sentence.
      if (RepaError.isInstance(error) && error.code === 'invalid_request') {
        const detail = error.message.replace(/^Invalid request: (params\.value: )?/i, '');
        return `Not saved: it takes ${DECLARED.get(item.key)?.values ?? 'another value'} (${detail}).`;
      }
      return describeError(error);
    }
  };
  const actionsOf = (item: SettingItemView) => {
    const target = DECLARED.get(item.key)?.appliesAt ?? chosen;
    const base = {
      ...where,
      level: target,
      key: item.key,
      expectedRevision: item.revisions[target],
    };
    const label = DECLARED.get(item.key)?.label ?? item.key;
    return {
      set: (value: unknown) =>
        write(
          item,
          () => client.request('settings.set', { ...base, value }),
          `${label}: saved for ${LEVEL_NAMES[target]}.`,
        ),
      reset: () =>
        write(
          item,
          () => client.request('settings.reset', base),
          `${label}: ${LEVEL_NAMES[target]}’s value removed.`,
        ),
    };
  };

  return html`<section class="panel settings-view" aria-labelledby="settings-heading">
    <h2 id="settings-heading">Settings</h2>
    <fieldset class="levels">
      <legend>Change settings for</legend>
      ${levels.map(
        (name) => html`<label class="check" for=${`settings-level-${name}`}>
          <input type="radio" name="settings-level" id=${`settings-level-${name}`} value=${name} checked=${chosen === name} onChange=${() => setLevel(name)} />
          ${LEVEL_NAMES[name]}
        </label>`,
      )}
    </fieldset>
    <p class="meta">
      A session's setting counts over the space's, and the space's over the one for all spaces.
    </p>
    <p class="panel-message" role="status">${message}</p>
    <ul class="settings">
      ${[...items]
        .sort((a, b) => firstShown(a.key) - firstShown(b.key))
        .map((item) => {
          const declared = DECLARED.get(item.key);
          return declared
            ? html`<${SettingRow} key=${`${item.key}:${chosen}:${JSON.stringify(item.overrides[chosen]?.value)}:${JSON.stringify(item.value)}`} declared=${declared} item=${item} level=${chosen} models=${models} actions=${actionsOf(item)} />`
            : '';
        })}
    </ul>
  </section>`;
}
