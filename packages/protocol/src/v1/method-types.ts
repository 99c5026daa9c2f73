// The params and result of every v1 method as hand-written interfaces, so the emitted declarations
// carry each field's `description` as TSDoc (wire-types.test.ts checks them against the schemas).
import type { WireError } from '../errors/repa-error.js';
import type { PROTOCOL_VERSION } from './common.js';
import type { LearningContext } from './learning-context.js';
import type { LoginProgress, LoginType } from './login.js';
import type { ModelInfo } from './models.js';
import type {
  RunDelivery,
  RunEventNotification,
  RunInfo,
  RunInput,
  RunOverrides,
  RunStatus,
} from './runs.js';
import type { HistoryItem, SessionInfo } from './sessions.js';
import type { SettingItemView, SettingsSetParams, WritableSettingsLevel } from './settings.js';
import type { RestrictedItem, TrustReason } from './trust.js';

/** `initialize` params. */
export interface InitializeParams {
  /** Protocol versions the client speaks, most preferred first. */
  protocolVersions: string[];
  /** The client's name and version, for logs. */
  client?:
    | {
        /** The client's name. */
        name: string;
        /** The client's version. */
        version: string;
      }
    | undefined;
}
/** `initialize` result. */
export interface InitializeResult {
  /** The version chosen for this connection. */
  protocolVersion: typeof PROTOCOL_VERSION;
  /** The server's name and version, and the model its runs use (`repa-offline` offline). */
  server: {
    /** The server's name. */
    name: string;
    /** The server's version. */
    version: string;
    /** `provider/id` of the model its runs use (`repa-offline` offline). */
    model?: string | undefined;
  };
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `space.open` params. */
export interface SpaceOpenParams {
  /** The space root folder (an absolute path). */
  root: string;
}
/** `space.open` result. */
export interface SpaceOpenResult {
  /** The opened space. */
  space: {
    /** The space root (an absolute, real path). */
    root: string;
    /** The folder's name. */
    name: string;
    /** The current learning context, when the space has one. */
    learningContext: {
      /** Its revision. */
      revision: string;
      /** Body length in characters. */
      chars: number;
      /** The sources it was built from. */
      sources: string[];
    } | null;
    /** Whether the learner trusts the space (spec R13); untrusted, what `restricted` lists has no effect. */
    trusted?: boolean | undefined;
    /** Why it is trusted: `user` (`space.trust`) or `created` (Repa made a plain folder a space). */
    trustReason?: TrustReason | undefined;
    /** What the space holds that has no effect until it is trusted (empty when trusted). */
    restricted?: RestrictedItem[] | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.create` params. */
export interface SessionCreateParams {
  /** The space root (an absolute path). */
  space: string;
  /** Optional human title. */
  title?: string | undefined;
}
/** `session.create` result. */
export interface SessionCreateResult {
  /** The new session. */
  session: SessionInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.list` params. */
export interface SessionListParams {
  /** The space root (an absolute path). */
  space: string;
}
/** `session.list` result. */
export interface SessionListResult {
  /** The sessions of the space, newest first. */
  sessions: SessionInfo[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.history` params. */
export interface SessionHistoryParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
}
/** `session.history` result. */
export interface SessionHistoryResult {
  /** The session's public history, oldest first. */
  items: HistoryItem[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.rename` params. */
export interface SessionRenameParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
  /** The new title. */
  title: string;
}
/** `session.rename` result. */
export interface SessionRenameResult {
  /** The renamed session. */
  session: SessionInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.delete` params. */
export interface SessionDeleteParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
}
/** `session.delete` result. */
export interface SessionDeleteResult {
  /** The deleted session's id. */
  sessionId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `space.trust` params. */
export interface SpaceTrustParams {
  /** The space root (an absolute path). */
  space: string;
  /** True trusts the space from the next run on; false withdraws the trust. */
  trusted: boolean;
}
/** `space.trust` result. */
export interface SpaceTrustResult {
  /** The space root (its real path). */
  space: string;
  /** Whether the space is trusted now. */
  trusted: boolean;
  /** Whether it was trusted before this call. */
  wasTrusted: boolean;
  /** What the space holds that trusting it lets take effect (restricted again when distrusted). */
  restricted?: RestrictedItem[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.submit` params. */
export interface RunSubmitParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session the run belongs to. */
  sessionId: string;
  /** Client-chosen idempotency key: resubmitting it returns the original run. */
  requestId: string;
  /** What to do. */
  input: RunInput;
  /** Model settings for this run only, over every settings level. */
  overrides?: RunOverrides | undefined;
  /**
   * How the request reaches the session (default `new`): `queue` waits behind the session's
   * runs; `steer` and `followUp` go into its active run (`no_active_run` when there is none).
   */
  delivery?: RunDelivery | undefined;
}
/** `run.submit` result. */
export interface RunSubmitResult {
  /** The accepted (or original) run. */
  run: RunInfo;
  /** True when this request id was already accepted and the original run is returned. */
  resubmitted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.get` params. */
export interface RunGetParams {
  /** The run. */
  runId: string;
}
/** `run.get` result. */
export interface RunGetResult {
  /** The run. */
  run: RunInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.list` params. */
export interface RunListParams {
  /** Only runs of this space. */
  space?: string | undefined;
  /** Only runs of this session. */
  sessionId?: string | undefined;
  /** Only runs in this status. */
  status?: RunStatus | undefined;
  /** At most this many, newest first (default 50). */
  limit?: number | undefined;
}
/** `run.list` result. */
export interface RunListResult {
  /** The matching runs, newest first. */
  runs: RunInfo[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.subscribe` params. */
export interface RunSubscribeParams {
  /** The run whose `run.event` notifications this connection wants. */
  runId: string;
}
/** `run.subscribe` result. */
export interface RunSubscribeResult {
  /** The run as it is now; events after this state follow as notifications. */
  run: RunInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.cancel` params. */
export interface RunCancelParams {
  /** The run. */
  runId: string;
}
/** `run.cancel` result. */
export interface RunCancelResult {
  /** The run. */
  run: RunInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.retry` params. */
export interface RunRetryParams {
  /** The run to retry. */
  runId: string;
  /** Idempotency key of the retry itself. */
  requestId: string;
}
/** `run.retry` result. */
export interface RunRetryResult {
  /** The retry (or the original retry for a repeated request id). */
  run: RunInfo;
  /** True when this request id was already accepted and the original retry is returned. */
  resubmitted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.resume` params. */
export interface RunResumeParams {
  /** The interrupted or failed run to resume. */
  runId: string;
  /** Idempotency key of the resumption itself. */
  requestId: string;
}
/** `run.resume` result. */
export interface RunResumeResult {
  /** The new attempt (or the original one for a repeated request id). */
  run: RunInfo;
  /** True when this request id was already accepted and the original attempt is returned. */
  resubmitted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `settings.get` params: `sessionId` needs `space`. */
export interface SettingsGetParams {
  /** The space root (an absolute path); required for `space` and `session` levels. */
  space?: string | undefined;
  /** The session id; required for the `session` level. */
  sessionId?: string | undefined;
}
/** `settings.get` result. */
export interface SettingsGetResult {
  /** Every settings item, in registry order. */
  items: SettingItemView[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `settings.set` result. */
export interface SettingsSetResult {
  /** The item afterwards. */
  item: SettingItemView;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `settings.reset` params. */
export interface SettingsResetParams {
  /** The space root (an absolute path); required for `space` and `session` levels. */
  space?: string | undefined;
  /** The session id; required for the `session` level. */
  sessionId?: string | undefined;
  /** The level to write; `space` needs `space`, `session` needs `space` and `sessionId`. */
  level: WritableSettingsLevel;
  /** Refuse with `stale_version` unless the level's revision is this. */
  expectedRevision?: number | undefined;
  /** Dotted item key, e.g. `prompts.base`. */
  key: string;
}
/** `settings.reset` result. */
export interface SettingsResetResult {
  /** The item afterwards. */
  item: SettingItemView;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `context.get` params. */
export interface ContextGetParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session whose settings decide `provided`, and whose last-provided revision is told. */
  sessionId?: string | undefined;
}
/** `context.get` result. */
export interface ContextGetResult {
  /** The space's learning context, or null when it has none. */
  context: LearningContext | null;
  /** Whether the next run is given it: the effective `prompts.learningContext` and its level. */
  provided?:
    | {
        /** The effective value of `prompts.learningContext`. */
        value: boolean;
        /** The level the value comes from. */
        source: string;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** With `sessionId`: the revision last given to that session (null: none yet). */
  lastProvidedRevision?: string | null | undefined;
  /** Why no run is given `context` although the space has it (it came with an untrusted folder). */
  ignored?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `context.set` params. */
export interface ContextSetParams {
  /** The space root (an absolute path). */
  space: string;
  /** The full new body. */
  body: string;
  /** The space-relative sources it was built from. */
  sources: string[];
  /** Refuse with `stale_version` unless the current revision is this; null: unless none exists. */
  expectedRevision: string | null;
  /** Replace a damaged file, keeping its bytes beside it (`damagedFileKept`). */
  force?: boolean | undefined;
}
/** `context.set` result. */
export interface ContextSetResult {
  /** The new revision. */
  revision: string;
  /** Where a damaged file replaced with `force` was kept. */
  damagedFileKept?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `context.build` params. */
export interface ContextBuildParams {
  /** The space root (an absolute path). */
  space: string;
  /** Client-chosen id of this build: its `context.progress` notifications and `context.cancel`. */
  buildId: string;
  /** Space-relative paths of the documents to build from. */
  sources: string[];
  /** What the context should focus on. */
  instructions?: string | undefined;
  /** Refuse with `stale_version` unless the current revision is this (null: none); any when absent. */
  expectedRevision?: string | null | undefined;
  /** Replace a damaged file, keeping its bytes beside it. */
  force?: boolean | undefined;
}
/** `context.build` result. */
export interface ContextBuildResult {
  /** The new revision. */
  revision: string;
  /** `provider/id` of the model that wrote it, or `repa-offline`. */
  model: string;
  /** True when built offline by extraction (headings and first sentences), not by a model. */
  extractive: boolean;
  /** Sources cut to fit the model's window, with how much of each it saw. */
  cut: {
    /** The source. */
    path: string;
    /** Characters the model saw. */
    keptChars: number;
    /** Characters the source has. */
    totalChars: number;
    /** Members a newer server may add. */
    [member: string]: unknown;
  }[];
  /** Where a damaged file replaced with `force` was kept. */
  damagedFileKept?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `context.cancel` params. */
export interface ContextCancelParams {
  /** The build to cancel. */
  buildId: string;
}
/** `context.cancel` result. */
export interface ContextCancelResult {
  /** False when no such build is running. */
  cancelled: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `doctor` params: none. */
export type DoctorParams = Record<string, never>;
/** `doctor` result. */
export interface DoctorResult {
  /** The model the daemon's runs use, and which ones have credentials (never the keys). */
  models: {
    /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
    default: string;
    /** True for the embedded offline responder. */
    offline: boolean;
    /** `provider/id` of every model with credentials (empty when offline). */
    available: string[];
    /** Why Pi's configuration could not be read (then `default` is empty). */
    error?: WireError | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Pi's configuration as the daemon sees it. */
  pi: {
    /** Pi's agent directory. */
    agentDir: string;
    /** Whether it exists. */
    exists: boolean;
    /** Whether `auth.json` exists in it. */
    authJson: boolean;
    /** Whether `models.json` exists in it. */
    modelsJson: boolean;
    /** The key variables the daemon looked for (names only). */
    keyVariables: string[];
    /** Those set in the daemon's environment (names only, never values). */
    keyVariablesSet: string[];
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Whether the `bash` tool's sandbox starts where the daemon runs (absent from older servers). */
  sandbox?:
    | {
        /** The `bwrap` on the daemon's `PATH`, or null when there is none. */
        bwrap: string | null;
        /** Whether a sandbox started (and, as root, a pids cgroup could be made). */
        ready: boolean;
        /** Why not, when not ready (`sandbox_unavailable`, with the fix). */
        error?: WireError | undefined;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `models.list` params. */
export interface ModelsListParams {
  /** Also list the models without credentials. Default false. */
  all?: boolean | undefined;
}
/** `models.list` result. */
export interface ModelsListResult {
  /** The models, credentialed first, then by `provider/id`. */
  models: ModelInfo[];
  /** `provider/id` of the daemon's model (`repa-offline` for the embedded responder). */
  default: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `login.start` params. */
export interface LoginStartParams {
  /** Pi's provider id, e.g. `anthropic`. */
  provider: string;
  /** `api_key` (Pi asks for the key) or `oauth` (Pi's sign-in flow). */
  type: LoginType;
  /** Names this login in `login.progress` and `login.answer`; chosen by the client. */
  loginId: string;
}
/** `login.start` result. */
export interface LoginStartResult {
  /** The connection now configured: provider and credential source, e.g. `anthropic:auth-file`. */
  connection: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `login.answer` params. */
export interface LoginAnswerParams {
  /** The login. */
  loginId: string;
  /** The prompt being answered. */
  promptId: string;
  /** The answer (a `select` prompt takes the option's `id`). */
  value: string;
}
/** `login.answer` result. */
export interface LoginAnswerResult {
  /** False when no such prompt is waiting (answered, cancelled or unknown). */
  accepted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Every v1 method name with the interfaces of its params and result. */
export interface V1MethodTypes {
  initialize: { params: InitializeParams; result: InitializeResult };
  'space.open': { params: SpaceOpenParams; result: SpaceOpenResult };
  'session.create': { params: SessionCreateParams; result: SessionCreateResult };
  'session.list': { params: SessionListParams; result: SessionListResult };
  'session.history': { params: SessionHistoryParams; result: SessionHistoryResult };
  'session.rename': { params: SessionRenameParams; result: SessionRenameResult };
  'session.delete': { params: SessionDeleteParams; result: SessionDeleteResult };
  'space.trust': { params: SpaceTrustParams; result: SpaceTrustResult };
  'run.submit': { params: RunSubmitParams; result: RunSubmitResult };
  'run.get': { params: RunGetParams; result: RunGetResult };
  'run.list': { params: RunListParams; result: RunListResult };
  'run.subscribe': { params: RunSubscribeParams; result: RunSubscribeResult };
  'run.cancel': { params: RunCancelParams; result: RunCancelResult };
  'run.retry': { params: RunRetryParams; result: RunRetryResult };
  'run.resume': { params: RunResumeParams; result: RunResumeResult };
  'settings.get': { params: SettingsGetParams; result: SettingsGetResult };
  'settings.set': { params: SettingsSetParams; result: SettingsSetResult };
  'settings.reset': { params: SettingsResetParams; result: SettingsResetResult };
  'context.get': { params: ContextGetParams; result: ContextGetResult };
  'context.set': { params: ContextSetParams; result: ContextSetResult };
  'context.build': { params: ContextBuildParams; result: ContextBuildResult };
  'context.cancel': { params: ContextCancelParams; result: ContextCancelResult };
  doctor: { params: DoctorParams; result: DoctorResult };
  'models.list': { params: ModelsListParams; result: ModelsListResult };
  'login.start': { params: LoginStartParams; result: LoginStartResult };
  'login.answer': { params: LoginAnswerParams; result: LoginAnswerResult };
}

/** `context.progress` params: one step of a `context.build`. */
export interface ContextProgressParams {
  /** The build. */
  buildId: string;
  /** `reading`, `extracting`, `model` or `writing`. */
  step: string;
  /** One line for people. */
  message: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Every v1 notification name with the interface of its params. */
export interface V1NotificationTypes {
  'run.event': RunEventNotification;
  'context.progress': ContextProgressParams;
  'login.progress': LoginProgress;
}
