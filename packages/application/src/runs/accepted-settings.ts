import type { ModelSettingsSources, RunInfo, RunOverrides } from '@repa/protocol';
import { runOverridesSchema } from '@repa/protocol/schemas';
import type { RunSettingsSnapshot } from '@repa/settings';
import type { AcceptedSettings } from './run-request.js';

/** The model settings a request may override for one run: the keys of `run.submit`'s `overrides`. */
const OVERRIDABLE = runOverridesSchema.keyof().options;

/**
 * The settings of a new request (spec R20): the levels as read at acceptance, with the request's
 * one-run `overrides` of the model, thinking level, edits mode and study mode (their source is
 * `run`).
 */
export function decideSettings(
  snapshot: RunSettingsSnapshot,
  overrides: RunOverrides | undefined,
): AcceptedSettings {
  const modelSettings = { ...snapshot.modelSettings };
  const modelSettingsSources: ModelSettingsSources = { ...snapshot.modelSources };
  for (const key of OVERRIDABLE) {
    const value = overrides?.[key];
    if (value === undefined) continue;
    Object.assign(modelSettings, { [key]: value });
    modelSettingsSources[key] = 'run';
  }
  return {
    promptSettings: snapshot.promptSettings,
    settingsRevisions: snapshot.revisions,
    settingsSources: snapshot.sources,
    modelSettings,
    modelSettingsSources,
  };
}

/**
 * The settings `run` was accepted with, for a request that keeps them: its resumption (R73), or a
 * steer or follow-up message delivered into it; with the model decided for it.
 */
export function acceptedSettingsOf(run: RunInfo): AcceptedSettings {
  const {
    promptSettings,
    settingsRevisions,
    settingsSources,
    modelSettings,
    modelSettingsSources,
    model,
    modelSource,
    thinkingLevel,
    connection,
  } = run;
  const decided =
    model && modelSource && thinkingLevel
      ? {
          model: {
            model,
            source: modelSource,
            thinkingLevel,
            ...(connection ? { connection } : {}),
          },
        }
      : {};
  return {
    promptSettings,
    settingsRevisions,
    settingsSources,
    modelSettings,
    modelSettingsSources,
    ...decided,
  };
}

/** The one-run overrides `run` was accepted with (a retry keeps them), or undefined for none. */
export function overridesOf(run: RunInfo): RunOverrides | undefined {
  const overrides = Object.fromEntries(
    OVERRIDABLE.filter((key) => run.modelSettingsSources?.[key] === 'run').map((key) => [
      key,
      run.modelSettings?.[key],
    ]),
  );
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
