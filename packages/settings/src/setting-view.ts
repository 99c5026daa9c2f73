import type { SettingItemView, SettingsLevel, WritableSettingsLevel } from '@repa/protocol';
import type { ScopeState, SettingsDocument } from './settings-document.js';
import type { SettingItemDefinition } from './settings-registry.js';

/** What an untrusted space's override of an item that needs trust is reported with. */
const UNTRUSTED_REASON =
  "This space is not trusted, so its own value is ignored; check the space's .repa/settings.json, then run repa trust to use it.";

/** The overrides that apply to one scope, level by level. */
export interface Layers {
  readonly application: ScopeState;
  readonly space: ScopeState | undefined;
  readonly session: ScopeState | undefined;
  /** Whether the space's own overrides of items that need trust count. */
  readonly trusted: boolean;
}

const WRITABLE_LEVELS = ['application', 'space', 'session'] as const;

function clone<T>(value: T): T {
  return value === null || typeof value !== 'object' ? value : structuredClone(value);
}

/** An item's view: its value in effect, where that came from, and each level's override. */
export function buildView(item: SettingItemDefinition, layers: Layers): SettingItemView {
  let value = clone(item.defaultValue);
  let source: SettingsLevel = 'default';
  const overrides: SettingItemView['overrides'] = {};
  const revisions: SettingItemView['revisions'] = { application: 0 };
  const ignored: WritableSettingsLevel[] = [];
  for (const level of WRITABLE_LEVELS) {
    const state = layers[level];
    if (state === undefined) continue;
    const entry = state.entries.get(item.key);
    revisions[level] = entry?.revision ?? 0;
    if (entry?.isSet) {
      overrides[level] = { value: clone(entry.value), revision: entry.revision };
      // Contract: an untrusted space's own value of an item that needs trust never takes effect.
      if (level !== 'application' && item.requiresTrust && !layers.trusted) {
        ignored.push(level);
        continue;
      }
      value = clone(entry.value);
      source = level;
    }
  }
  const view: SettingItemView = {
    key: item.key,
    value,
    source,
    defaultValue: clone(item.defaultValue),
    overrides,
    revisions,
  };
  if (ignored.length > 0) view.ignored = { levels: ignored, reason: UNTRUSTED_REASON };
  return view;
}

/** The scopes of the settings files read for one call. */
export function layersOf(
  application: SettingsDocument,
  space: SettingsDocument | undefined,
  sessionId: string | undefined,
  trusted: boolean,
): Layers {
  return {
    trusted,
    application: application.scope({ level: 'application' }),
    space: space?.scope({ level: 'space' }),
    session:
      space === undefined || sessionId === undefined
        ? undefined
        : space.scope({ level: 'session', sessionId }),
  };
}
