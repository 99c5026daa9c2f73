import type {
  ModelSettings,
  ModelSettingsSources,
  PromptSettings,
  PromptSettingsSources,
  RunDelivery,
  RunInfo,
  RunInput,
  RunOverrides,
} from '@repa/protocol';
import type { RunModel } from '../model-choices.js';

/** What a new request asks for, as the ledger records it. */
export interface RunRequest {
  /** The client's idempotency key. */
  requestId: string;
  /** The space root. */
  space: string;
  /** The session. */
  sessionId: string;
  /** The input. */
  input: RunInput;
  /** The run this request retries. */
  retryOf?: string;
  /** One-run model settings (`repa run --model --thinking`). */
  overrides?: RunOverrides;
  /** How the request reaches the session (absent: `new`). */
  delivery?: RunDelivery;
  /** The run a `steer` or `followUp` request goes into (decided by the application). */
  targetRunId?: string;
  /** The interrupted or failed run this request resumes. */
  resumeOf?: string;
}

/** The most runs one session may have waiting in its queue (`queue_full` past it). */
export const QUEUE_LIMIT = 100;

/** The settings decided before acceptance (spec R20). */
export interface AcceptedSettings {
  /** The effective prompt settings. */
  promptSettings: PromptSettings;
  /** The settings revisions they were built from. */
  settingsRevisions: Record<string, number>;
  /** The level each prompt setting came from (spec R10). */
  settingsSources?: PromptSettingsSources;
  /** The model settings, one-run overrides applied. */
  modelSettings?: ModelSettings;
  /** Where each model setting came from (`run` for an override). */
  modelSettingsSources?: ModelSettingsSources;
  /** The model and thinking level decided from them (spec R71, R72). */
  model?: RunModel;
}

/** The outcome of {@link RunLedger.accept}. */
export interface Acceptance {
  /** The accepted run, or the original one for a resubmitted request id. */
  run: RunInfo;
  /** True when the request id was known and the original run is returned. */
  resubmitted: boolean;
}
