// generated — do not edit. Written by `pnpm --filter @repa/protocol schema` from the zod schemas
// (src/v1/wire-types/render-wire-types.ts); each member's TSDoc is its schema's `.describe()`.
// biome-ignore-all format: generated

/** A settings inheritance level. */
export type SettingsLevel = 'default' | 'application' | 'space' | 'session';

/** A settings level a client may write. */
export type WritableSettingsLevel = 'application' | 'space' | 'session';

/** A `prompts.fileChanges` mode. */
export type FileChangesMode = 'off' | 'on-demand' | 'notice' | 'diff';

/** A Pi thinking level. */
export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** A `tools.bash` mode. */
export type BashMode = 'off' | 'sandboxed';

/** A `tools.edits` mode. */
export type EditsMode = 'auto' | 'ask' | 'off';

/** A `study.mode`. */
export type StudyMode = 'answer' | 'tutor';

/** Where Pi finds a provider's credentials. */
export type CredentialSource =
  | 'environment'
  | 'auth-file'
  | 'oauth'
  | 'models-json'
  | 'runtime'
  | 'fallback';

/** Why a run uses its model. */
export type ModelSource =
  | 'run'
  | 'session'
  | 'space'
  | 'application'
  | 'daemon'
  | 'pi-default'
  | 'no-credentials';

/** What kind of thing of a space has no effect until the space is trusted. */
export type RestrictedKind =
  | 'pi-settings'
  | 'pi-resources'
  | 'instructions'
  | 'agent-skills'
  | 'settings'
  | 'learning-context'
  | 'sessions';

/** Why a space is trusted. */
export type TrustReason = 'user' | 'created';

/** A run's status. */
export type RunStatus =
  | 'accepted'
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

/** How a request reaches the session. */
export type RunDelivery = 'new' | 'queue' | 'steer' | 'followUp';

/** A named section of Repa's system prompt. */
export type PromptSectionName =
  | 'base'
  | 'environment'
  | 'materials'
  | 'skillCatalog'
  | 'projectInstructions'
  | 'tools'
  | 'fileChanges'
  | 'citations'
  | 'tutor'
  | 'append';

/** How `login.start` signs in. */
export type LoginType = 'api_key' | 'oauth';

/** Where a Pi package is configured. */
export type PackageLevel = 'application' | 'space';

/** The wire shape of a Repa error. */
export interface WireError {
  /**
   * Stable code, one of the listed ones; v1 only adds codes, so treat one you do not know as a
   * generic error.
   */
  code: string;
  /** Human message saying what went wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
  /** Structured facts for recovery (e.g. the current version on `stale_version`). */
  details?: Record<string, unknown> | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A JSON-RPC 2.0 request or notification. */
export interface JsonRpcRequest {
  /** Always `2.0`. */
  jsonrpc: '2.0';
  /** Absent for notifications. */
  id?: string | number | undefined;
  /** The method's name. */
  method: string;
  /** The method's params. */
  params?: unknown;
}

/** What checking a citation found. */
export type CitationStatus =
  | 'verified'
  | 'quote_not_found'
  | 'range_outside'
  | 'not_read'
  | 'unknown_document';

/** One citation of an answer, as written and as checked against what the run read. */
export interface Citation {
  /** Its number in the answer, from 1 (footnote). */
  index: number;
  /** The citation as the answer wrote it, brackets included. */
  text: string;
  /** Where it starts in the answer, in UTF-16 code units. */
  offset: number;
  /** The document as cited: a path or a `repa:document/…` / `repa:material/…` identity. */
  document: string;
  /** The document's path relative to the space root (absent when unknown). */
  target?: string | undefined;
  /** The document's identity (absent when unknown). */
  identity?: string | undefined;
  /** The version (sha256) the run read and the citation was checked against. */
  version?: string | undefined;
  /** The cited page, for paged documents. */
  page?: number | undefined;
  /** First cited line, from 1. */
  startLine: number;
  /** Last cited line (equal to `startLine` for one). */
  endLine: number;
  /** The quoted words, when the citation quotes. */
  quote?: string | undefined;
  /** What the check found. */
  status: CitationStatus;
  /** The first cited lines of the version read (short; absent when not read). */
  excerpt?: string | undefined;
  /** True when shown after the document changed from the version read (absent otherwise). */
  changedSince?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The receipt of a save that reached disk. */
export interface SaveReceipt {
  /** The operation id the tool adapter generated. */
  operationId: string;
  /** Path of the saved object relative to the space root. */
  target: string;
  /** The object's stable identity, e.g. `repa:document/<id>`. */
  identity: string;
  /** The version the save replaced; `null` for a new object. */
  previousVersion: string | null;
  /** The version now on disk (`null` when the save deleted the object). */
  version: string | null;
  /** The size in bytes now on disk. */
  bytes: number;
}

/** One change to an object this host read, found on disk since. */
export interface FileChange {
  /** Path relative to the space root. */
  target: string;
  /** Stable identity when known. */
  identity?: string | undefined;
  /** What happened to the object. */
  kind: 'modified' | 'deleted';
  /**
   * The version the host last observed; `null` when it had not read the object (e.g. a file a
   * command created or changed).
   */
  previousVersion: string | null;
  /** The version on disk now (`null` when deleted, or when the file is too large to compare). */
  version: string | null;
  /** How the change is described: a bare notice, a unified diff, or a location hint. */
  form: 'notice' | 'diff' | 'location';
  /** Bounded unified diff, for `form: 'diff'`. */
  diff?: string | undefined;
  /** Why there is no diff (binary, too large, old text unknown), for `form: 'location'`. */
  hint?: string | undefined;
  /** Bytes on disk now. */
  bytes?: number | undefined;
}

/** What one save changed in one file, from the bytes it replaced and the bytes it wrote. */
export interface SaveDiff {
  /** Path of the file relative to the space root. */
  target: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Unified diff of the change (3 lines of context), bounded; absent when `note` says why. */
  diff?: string | undefined;
  /** True when `diff` was cut short (`repa runs diff` shows all of it). */
  truncated?: boolean | undefined;
  /** Why there is no line diff: binary bytes, too large, or the bytes are not kept. */
  note?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/**
 * How the learner answers an approval request: `approve` this save or command, `approve-run` this
 * one and every later one of the run without asking, `refuse` it (nothing is written or run; the
 * model is told, with the reason).
 */
export type ApprovalAnswer = 'approve' | 'approve-run' | 'refuse';

/** What became of an approval request: `approved` or `refused`. */
export type ApprovalDecision = 'approved' | 'refused';

/** One approval request of a run (`tools.edits` `ask`) and its answer. */
export interface ApprovalRecord {
  /** The approval request, unique within the run. */
  approvalId: string;
  /** Pi's tool call id of the save or command. */
  toolCallId: string;
  /** The tool that wants to save (or `bash`, to run a command). */
  toolName: string;
  /** For a save: the files it writes, moves or deletes. */
  targets?: string[] | undefined;
  /** For `bash`: the command line. */
  command?: string | undefined;
  /** Absent while it waits, and when the run ended first (cancelled, interrupted). */
  decision?: ApprovalDecision | undefined;
  /** Why it was refused, as the learner wrote it (the model is told). */
  reason?: string | undefined;
  /** True when this answer approved the rest of the run too ("yes to all"). */
  forRun?: boolean | undefined;
  /** True when an earlier "yes to all" of the run approved it: the learner was not asked. */
  covered?: boolean | undefined;
  /** When the run asked. */
  requestedAt: string;
  /** When it was answered. */
  answeredAt?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** What a run did to a file. */
export type RunChangeKind = 'modified' | 'created' | 'deleted' | 'moved';

/** One file a run changed, with its diff. */
export interface RunFileDiff {
  /** The path the file had before the run (for a new file: where the run made it). */
  target: string;
  /** For a move: where the run moved it. */
  movedTo?: string | undefined;
  /** What the run did to the file. */
  change: RunChangeKind;
  /** The version before the run (`null`: the file did not exist). */
  beforeVersion: string | null;
  /** The version the run left (`null`: the run deleted it). */
  afterVersion: string | null;
  /** The change from before the run to after it. */
  diff: SaveDiff;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A file a `bash` command of the run changed; commands leave no receipts, so it is not rewound. */
export interface CommandChange {
  /** Path relative to the space root. */
  target: string;
  /** The command's operation id among the run's operations. */
  operationId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One file of a rewind: what it restores, or why not. */
export interface RewindFile {
  /** Where the file is restored (for a move: the path it had before the run). */
  target: string;
  /** For a move: where the run moved it (the rewind moves it back from there). */
  movedTo?: string | undefined;
  /** What the run did to the file. */
  change: RunChangeKind;
  /** The version the run left (`null`: the run deleted it); the rewind expects it. */
  runVersion: string | null;
  /** The version before the run, which the rewind writes back (`null`: removed). */
  restoreVersion: string | null;
  /** The version on disk when the rewind looked (`null`: no file there). */
  currentVersion?: string | null | undefined;
  /**
   * `planned` (a preview: would be restored), `restored`, `unchanged` (already as before the run)
   * or `refused` (see `error`).
   */
  status: 'planned' | 'restored' | 'unchanged' | 'refused';
  /**
   * True when the file had changed since the run and `force` wrote the old bytes over it anyway.
   */
  forced?: boolean | undefined;
  /**
   * Why it was refused: `stale_version` (changed since the run; both versions in `details`),
   * `history_evicted` (the old bytes are no longer kept), …
   */
  error?: WireError | undefined;
  /** The rewind's own save of this file, once restored. */
  receipts?: SaveReceipt[] | undefined;
  /** What restoring changes: from the bytes on disk now to the bytes before the run. */
  diff?: SaveDiff | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** What a rewind did, or as a preview would do. */
export interface RewindResult {
  /**
   * The rewind's id: its saves are `<rewindId>-<n>`, and `run.rewind` with it as `runId` undoes it.
   */
  rewindId: string;
  /** The run (or rewind) that was rewound. */
  runId: string;
  /** True when nothing was written (`preview: true`). */
  preview: boolean;
  /** Each file the run changed that the rewind covers. */
  files: RewindFile[];
  /** Files changed by `bash` commands of the run: not rewindable (no receipts). */
  commands: CommandChange[];
  /** Set when the conversation was moved back to before the run as well. */
  conversation?:
    | {
        /** The session entry the conversation continues from (`null`: its start). */
        leafId: string | null;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** The files the model is told at its next request were rewound. */
  told?: string[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Why a drafted card was dropped. */
export type DroppedCardReason =
  | 'no_citation'
  | 'forged_quote'
  | 'not_verified'
  | 'outside_passage'
  | 'gives_away'
  | 'no_answer'
  | 'source_changed'
  | 'extra_card';

/** A proposed card whose citation verified. */
export interface DraftedCard {
  /** The card id it is saved with (a redraft: the id of the card it replaces). */
  id: string;
  /** The question, or a cloze text with its `==hidden==` words. */
  front: string;
  /** The answer; empty for a cloze card. */
  back: string;
  /** The cited passage in Repa form, kept in its card comment: `notes/x.md:12-14`. */
  cite: string;
  /** The card's citation as checked against what the run read. */
  citation: Citation;
  /** The version of the cited document the run read. */
  version: string;
  /** The cited lines of that version, kept in its card comment. */
  quote: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A proposed card Repa dropped, with the reason. */
export interface DroppedCard {
  /** Its place among the cards the answer wrote. */
  index: number;
  /** Its front as written. */
  front: string;
  /** Its back as written. */
  back: string;
  /** Why it was dropped. */
  reason: DroppedCardReason;
  /** The reason in words, naming what failed. */
  explanation: string;
  /** Its citation as checked, when it had one. */
  citation?: Citation | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A quiz question whose citation verified (spec R109). */
export interface QuizQuestion {
  /** The question id (the id of the card it becomes). */
  id: string;
  /** The question as the learner sees it (a cloze: its hidden words as `_____`). */
  question: string;
  /** A question, or a sentence with words hidden. */
  kind: 'question' | 'cloze';
  /** The cited passage in Repa form: `notes/x.md:12-14`. */
  cite: string;
  /** The question's citation as checked against the run's reads. */
  citation: Citation;
  /** The version of the cited document the run read. */
  version: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The changes found before one model request. */
export interface FileChangeReport {
  /** The changes, in target order. */
  changes: FileChange[];
}

/** What the model was told in one section of the system prompt, and why a section is absent. */
export interface PromptSectionReport {
  /** The section. */
  name: PromptSectionName;
  /** Whether it is in the prompt. */
  included: boolean;
  /** Why it is included or absent, e.g. "disabled by space override", "not trusted", "empty". */
  reason: string;
  /** The section's text (empty when absent). */
  text: string;
  /** Length of `text` in UTF-16 code units. */
  chars: number;
  /** sha256 hex of `text` (UTF-8). */
  sha256: string;
}

/**
 * One thing found in an untrusted space that Repa leaves without effect until the space is trusted.
 */
export interface RestrictedItem {
  /**
   * What it is: Pi's project settings or resources, instruction files, skills, Repa settings, a
   * learning context, sessions.
   */
  kind: RestrictedKind;
  /** Where it is, relative to the space root (e.g. `.pi/settings.json`). */
  path: string;
  /** What trusting the space would let it do, in a sentence. */
  detail: string;
  /**
   * True when trusting the space lets it run as code on the learner's machine with the learner's
   * rights (a Pi extension, a Pi package, a command in Pi's settings, or a link Pi would follow to
   * them).
   */
  runsCode?: boolean | undefined;
  /**
   * Its name: a skill's folder, a prompt template's name, or an extension or package as
   * `.pi/settings.json` names it.
   */
  name?: string | undefined;
  /**
   * An instruction file's first lines (at most 5, bounded in length), control characters shown as
   * `\u{…}` escapes.
   */
  lines?: string[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/**
 * One thing a Pi package brings to a session: an extension, a tool, a skill or a prompt template.
 */
export interface PackageResource {
  /** `extension`, `tool` (registered by an extension), `skill` or `prompt` (template). */
  kind: 'extension' | 'tool' | 'skill' | 'prompt';
  /** The tool, skill or prompt template's name; an extension's file path. */
  name: string;
  /**
   * The package source as configured (`npm:…`, a git URL, a local folder as an absolute path);
   * `local` or `auto` for the learner's and the space's own Pi folders.
   */
  source: string;
  /** `application` (the learner's Pi settings) or `space` (the space's `.pi/settings.json`). */
  level: PackageLevel;
  /** What it does, as its package says (a tool's, skill's or template's description). */
  description?: string | undefined;
  /** True when it comes from a Pi folder or settings entry, not from a package. */
  topLevel?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/**
 * One of Pi's resource-loading diagnostics: an extension that failed or was refused, a skill or
 * prompt template with a bad header or a name collision.
 */
export interface ResourceDiagnostic {
  /** What the diagnostic is about: `extension`, `skill` or `prompt`. */
  kind: 'extension' | 'skill' | 'prompt';
  /** `error` (not loaded) or `warning`. */
  severity: 'error' | 'warning';
  /** Pi's message (or Repa's, for a refused extension). */
  message: string;
  /** The file concerned, when known. */
  path?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One Pi package configured at a level. */
export interface ConfiguredPackage {
  /** The package source as in Pi's settings; a local folder as an absolute path. */
  source: string;
  /** Where it is configured. */
  level: PackageLevel;
  /** Where Pi has it on disk (absent when it is not installed yet). */
  installedPath?: string | undefined;
  /** True when Pi's settings load only some of its resources. */
  filtered: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The effective `prompts.*` settings decided for one run. */
export interface PromptSettings {
  /** Base prompt; `null` is Repa's built-in base prompt, `""` is an explicitly empty one. */
  base: string | null;
  /** Text appended after everything else; `""` appends nothing. */
  append: string;
  /**
   * Include the space's project instruction files (only when the host trusts them). Default false.
   */
  projectInstructions: boolean;
  /** Include the skill catalog. Default true. */
  skillCatalog: boolean;
  /** Describe the working environment (space root, platform, date). Default true. */
  environment: boolean;
  /** Provide the space's learning context to the model. Default true. */
  learningContext: boolean;
  /** How file changes are told to the model. Default `on-demand`. */
  fileChanges: FileChangesMode;
  /**
   * Ask the model to cite the learner's documents in Repa's citation form. Default true (absent on
   * runs recorded before the setting existed: on).
   */
  citations?: boolean | undefined;
  /**
   * With the learning context, give the model a short summary of the learner's study progress
   * observed in the study log. Default true (absent on runs recorded before the setting existed:
   * on).
   */
  studySummary?: boolean | undefined;
}

/** The level each effective `prompts.*` setting of a run came from. */
export type PromptSettingsSources = Partial<Record<'base' | 'append' | 'projectInstructions' | 'skillCatalog' | 'environment' | 'learningContext' | 'fileChanges' | 'citations' | 'studySummary', SettingsLevel>>;

/** The model settings decided for one run. */
export interface ModelSettings {
  /** `provider/id` of the model; `null` (default) is the model Pi itself would choose. */
  model: string | null;
  /** Pi thinking level; `null` (default) is Pi's own default level. */
  thinkingLevel: ThinkingLevel | null;
  /** The tool names the run may use; `null` (default) is every content and search tool. */
  tools: string[] | null;
  /** Whether the run may use the sandboxed `bash` tool; absent (older runs) is `off`. */
  bash?: BashMode | undefined;
  /** The wall-clock limit of one `bash` command in seconds; absent (older runs) is 120. */
  bashTimeoutSeconds?: number | undefined;
  /**
   * Whether saves and commands wait for the learner (`ask`), run at once (`auto`) or are not
   * offered (`off`); absent (older runs) is `auto`.
   */
  edits?: EditsMode | undefined;
  /**
   * How the agent helps: `answer`, or `tutor` (asks back, hints first, read-only tools); absent
   * (older runs) is `answer`.
   */
  studyMode?: StudyMode | undefined;
  /** The OCR languages pages without a text layer are read in; absent (older runs) is `["eng"]`. */
  ocrLanguages?: string[] | undefined;
}

/** Where each model setting of a run came from. */
export type ModelSettingsSources = Partial<Record<'model' | 'thinkingLevel' | 'tools' | 'bash' | 'bashTimeoutSeconds' | 'edits' | 'studyMode' | 'ocrLanguages', 'default' | 'application' | 'space' | 'session' | 'run'>>;

/** One level's override of one item. */
export interface SettingOverride {
  /** The stored value. */
  value: unknown;
  /** Grows on every set or reset of this item at this level. */
  revision: number;
}

/** What `settings.get` reports for one item. */
export interface SettingItemView {
  /** Dotted key, e.g. `prompts.base`. */
  key: string;
  /** The effective value. */
  value: unknown;
  /** The level the effective value comes from. */
  source: SettingsLevel;
  /** The built-in default. */
  defaultValue: unknown;
  /** The override stored at each level, when there is one. */
  overrides: {
    /** The override stored at the application level. */
    application?: SettingOverride | undefined;
    /** The override stored at the space level. */
    space?: SettingOverride | undefined;
    /** The override stored at the session level. */
    session?: SettingOverride | undefined;
  };
  /**
   * The current revision at each writable level, even without an override (for `expectedRevision`).
   */
  revisions: {
    /** The application level's revision. */
    application: number;
    /** The space level's revision (when the call named a space). */
    space?: number | undefined;
    /** The session level's revision (when the call named a session). */
    session?: number | undefined;
  };
  /** The levels whose override has no effect, and why (an untrusted space's own settings). */
  ignored?:
    | {
        /** The levels whose override is left out of `value`. */
        levels: WritableSettingsLevel[];
        /** Why, in a sentence with what to do. */
        reason: string;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `settings.set` params (in TypeScript: any key, any value; the schema checks them per key). */
export interface SettingsSetParams {
  /** The space root (an absolute path); required for `space` and `session` levels. */
  space?: string | undefined;
  /** The session id; required for the `session` level. */
  sessionId?: string | undefined;
  /** The level to write; `space` needs `space`, `session` needs `space` and `sessionId`. */
  level: WritableSettingsLevel;
  /** Refuse with `stale_version` unless the level's revision is this. */
  expectedRevision?: number | undefined;
  /** Dotted item key. */
  key: string;
  /** The complete new value of the item. */
  value: unknown;
}

/** `settings.reset` params (in TypeScript: any key; the schema checks it). */
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

/** One model Pi knows. */
export interface ModelInfo {
  /** `provider/id`, as `model.id` and `repa run --model` take it. */
  id: string;
  /** Pi's provider id. */
  provider: string;
  /** Display name. */
  name: string;
  /** Context window in tokens. */
  contextWindow: number;
  /** Whether the model supports thinking levels above `off`. */
  reasoning: boolean;
  /** Whether Pi has credentials for its provider (the model can be used). */
  credentials: boolean;
  /** Where those credentials come from. */
  credentialSource?: CredentialSource | undefined;
  /** The environment variable's name, for `environment` (never its value). */
  credentialVariable?: string | undefined;
  /**
   * True for the model a run uses now when no level sets `model.id` (the daemon's `--model`, else
   * Pi's own default among the models with credentials, else `repa-offline`).
   */
  default: boolean;
  /** True for `repa-offline`, the local responder (no language model, no key). */
  offline?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The model and thinking level a run uses, and why. */
export interface ModelDecision {
  /** `provider/id` of the model (`repa-offline` for the local responder). */
  model: string;
  /** Why this model. */
  source: ModelSource;
  /** The thinking level the run uses, clamped to what the model supports. */
  thinkingLevel: ThinkingLevel;
  /** Where the thinking level comes from: a level, a one-run override, or Pi's default. */
  thinkingSource: 'run' | 'session' | 'space' | 'application' | 'pi-default';
  /** True for `repa-offline`, the local responder. */
  offline: boolean;
  /** Whether Pi has credentials for the model now; false: a run on it is refused `auth_failed`. */
  credentials: boolean;
  /** The connection it would use: provider and credential source, e.g. `anthropic:auth-file`. */
  connection?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A session of a space. */
export interface SessionInfo {
  /** The session id (Pi's session id). */
  sessionId: string;
  /** The space root (an absolute path). */
  space: string;
  /** Optional human title. */
  title?: string | undefined;
  /** When the session was created. */
  createdAt: string;
  /** When the session last changed. */
  updatedAt?: string | undefined;
  /**
   * Present when the session file is damaged (`session_damaged`): the session is listed but cannot
   * be read or continued; `details.quarantine` names the byte copy kept before anything else.
   */
  damaged?: WireError | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** An outside file granted read-only to spaces (spec R15, R54), read as `repa:material/<id>`. */
export interface MaterialInfo {
  /** Its id. */
  id: string;
  /** `repa:material/<id>`: how the model and `--attach` address it. */
  identity: string;
  /** The outside file's absolute path. */
  path: string;
  /** The learner's title, when given. */
  title?: string | undefined;
  /** What it was when granted (absent for a hand-written grant). */
  type?: 'pdf' | 'docx' | 'epub' | 'html' | 'text' | undefined;
  /** Its size now, when it is there. */
  bytes?: number | undefined;
  /** The space roots it is granted to; null: every space. */
  spaces: string[] | null;
  /** `vanished`: no regular file there now; `changed`: it is no longer of its `type`. */
  state: 'ok' | 'vanished' | 'changed';
  /** With `changed`: what it is now (a type, or a format Repa cannot read). */
  currentType?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A card's FSRS state (spec R101, R102). */
export interface StudyCardState {
  /** Where the card is in FSRS. */
  state: 'new' | 'learning' | 'review' | 'relearning';
  /** When it is due. */
  due: string;
  /** FSRS stability (days). */
  stability: number;
  /** FSRS difficulty (1–10). */
  difficulty: number;
  /** The interval it was given, in days. */
  scheduledDays: number;
  /** The learning step it is at. */
  learningSteps: number;
  /** Times it was reviewed. */
  reps: number;
  /** Times it was forgotten. */
  lapses: number;
  /** When it was last reviewed. */
  lastReview?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A study card of a note (spec R100). */
export interface StudyCard {
  /** A card's id (from its Repa comment, or derived from its note and front). */
  id: string;
  /** The note holding it (path relative to the space root). */
  note: string;
  /** Its first line in the note. */
  line: number;
  /** How it is written (`front::back`, `a:::b`, `?`, `??`, `==cloze==`). */
  kind: 'basic' | 'reversed' | 'multiline' | 'multiline-reversed' | 'cloze';
  /** What is asked (a cloze: its deletion as `[...]`). */
  front: string;
  /** The answer. */
  back: string;
  /** The note's tags, without `#`. */
  tags: string[];
  /** Whether the card's source passage changed since it was written (spec R103). */
  source: {
    /**
     * `none`: the card cites no passage; `ok`: the cited lines still hold its quote; `changed`:
     * they no longer do, or the document is gone.
     */
    status: 'none' | 'ok' | 'changed';
    /** The cited passage (`notes/x.md:12-18`, `book.pdf#p4:3-9`). */
    cite?: string | undefined;
    /** With `changed`: the cited lines as they were. */
    quote?: string | undefined;
    /** With `changed`: the cited lines now (null: the document or page is gone). */
    lines?: string | null | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Its FSRS state now (a new card: as of the call). */
  fsrs: StudyCardState;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A due card with what each rating would do (spec R102). */
export interface StudyDueCard {
  /** A card's id (from its Repa comment, or derived from its note and front). */
  id: string;
  /** The note holding it (path relative to the space root). */
  note: string;
  /** Its first line in the note. */
  line: number;
  /** How it is written (`front::back`, `a:::b`, `?`, `??`, `==cloze==`). */
  kind: 'basic' | 'reversed' | 'multiline' | 'multiline-reversed' | 'cloze';
  /** What is asked (a cloze: its deletion as `[...]`). */
  front: string;
  /** The answer. */
  back: string;
  /** The note's tags, without `#`. */
  tags: string[];
  /** Whether the card's source passage changed since it was written (spec R103). */
  source: {
    /**
     * `none`: the card cites no passage; `ok`: the cited lines still hold its quote; `changed`:
     * they no longer do, or the document is gone.
     */
    status: 'none' | 'ok' | 'changed';
    /** The cited passage (`notes/x.md:12-18`, `book.pdf#p4:3-9`). */
    cite?: string | undefined;
    /** With `changed`: the cited lines as they were. */
    quote?: string | undefined;
    /** With `changed`: the cited lines now (null: the document or page is gone). */
    lines?: string | null | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Its FSRS state now (a new card: as of the call). */
  fsrs: StudyCardState;
  /** What each rating would do (ts-fsrs `repeat`). */
  next: {
    /** What one rating would do. */
    again: {
      /** When it would be due next. */
      due: string;
      /** The interval, in days (0 within the day). */
      scheduledDays: number;
      /** Members a newer server may add. */
      [member: string]: unknown;
    };
    /** What one rating would do. */
    hard: {
      /** When it would be due next. */
      due: string;
      /** The interval, in days (0 within the day). */
      scheduledDays: number;
      /** Members a newer server may add. */
      [member: string]: unknown;
    };
    /** What one rating would do. */
    good: {
      /** When it would be due next. */
      due: string;
      /** The interval, in days (0 within the day). */
      scheduledDays: number;
      /** Members a newer server may add. */
      [member: string]: unknown;
    };
    /** What one rating would do. */
    easy: {
      /** When it would be due next. */
      due: string;
      /** The interval, in days (0 within the day). */
      scheduledDays: number;
      /** Members a newer server may add. */
      [member: string]: unknown;
    };
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Counts per grade: Again, Hard, Good, Easy. */
export interface StudyGradeCounts {
  /** Again (1). */
  again: number;
  /** Hard (2). */
  hard: number;
  /** Good (3). */
  good: number;
  /** Easy (4). */
  easy: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The progress of one source and version (spec R112). */
export interface StudyProgress {
  /** The cited document, or the note itself for cards citing nothing. */
  source: string;
  /**
   * The version its cards were written from and its questions asked on (null: hand-written cards).
   */
  version: string | null;
  /** Cards. */
  cards: number;
  /** Cards never reviewed. */
  new: number;
  /** Cards in (re)learning. */
  learning: number;
  /** Cards in review. */
  review: number;
  /** Cards due now (new ones included). */
  due: number;
  /**
   * The mean probability of recalling its reviewed cards now (ts-fsrs `get_retrievability`; null:
   * none reviewed).
   */
  recall: number | null;
  /** The ratings of its cards that stand (undone ones not). */
  ratings: StudyGradeCounts;
  /**
   * Graded answers to questions on it, by the help given before the grade (an override counts as
   * the learner's grade).
   */
  answers: {
    /** Answered right at once, with no help. */
    none: StudyGradeCounts;
    /** Answered on the second try, after a hint. */
    hint: StudyGradeCounts;
    /** Wrong twice: the passage was shown. */
    passage: StudyGradeCounts;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /** Its latest rating, answer or override (null: never studied). */
  lastStudied: string | null;
  /** Cards whose cited passage changed or is gone. */
  sourceChanged: number;
  /** Answers to questions asked on a version that is not the document now (changed or gone). */
  questionsChanged: number;
  /**
   * Reviewed cards due on each of the next 14 local days, today first (today's count holds the
   * overdue ones); new cards are not scheduled.
   */
  calendar: number[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A graded answer whose source changed since its question was asked (spec R112). */
export interface StudyChangedQuestion {
  /** The answer's id in the study log. */
  id: string;
  /** The question as the learner saw it. */
  question: string;
  /** The passage it was asked on. */
  cite: string;
  /** The cited document. */
  source: string;
  /** The version it was asked on. */
  version: string;
  /** When it was answered. */
  at: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One local day of the calendar (spec R112). */
export interface StudyCalendarDay {
  /** The local day (`YYYY-MM-DD`). */
  date: string;
  /** Reviewed cards of the sources given due that day. */
  due: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A tool call an assistant message of the history made. */
export interface HistoryToolCall {
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** What the call works on, as its arguments name it (a path or a search pattern). */
  target?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One public history item (spec R27). */
export interface HistoryItem {
  /** The Pi session entry id. */
  entryId: string;
  /** What the item is. */
  kind:
    | 'user'
    | 'assistant'
    | 'tool-result'
    | 'context-snapshot'
    | 'file-change-notice'
    | 'compaction-summary'
    | 'branch-summary';
  /** When the entry was written. */
  timestamp: string;
  /** Text content. */
  text: string;
  /** Tool name, for tool results and assistant tool calls. */
  toolName?: string | undefined;
  /** Whether a tool result is an error. */
  isError?: boolean | undefined;
  /** For a run's final answer: its checked citations (absent when none). */
  citations?: Citation[] | undefined;
  /**
   * For a reply that did not complete: `cancelled` (stopped on request) or `failed` (the model call
   * failed).
   */
  outcome?: 'cancelled' | 'failed' | undefined;
  /** For a `failed` reply: what the model call failed with, as the provider said it. */
  error?: string | undefined;
  /**
   * The run the entry belongs to (the run ledger's id; absent for entries written before runs were
   * marked in the history).
   */
  runId?: string | undefined;
  /** For an assistant message: the tool calls it made, in order (absent when none). */
  toolCalls?: HistoryToolCall[] | undefined;
  /**
   * For an assistant message with tool calls: its text alone (`text` also names each call as `[name
   * target]`).
   */
  answerText?: string | undefined;
  /** For a tool result: the tool call it answers. */
  toolCallId?: string | undefined;
  /** For a saving tool's result: its content operation id (`run.rewind` takes it). */
  operationId?: string | undefined;
  /** For a saving tool's result: the receipts of what reached disk. */
  receipts?: SaveReceipt[] | undefined;
  /** For a saving tool's result: what each saved file changed. */
  diffs?: SaveDiff[] | undefined;
  /** For a context snapshot: the learning-context revision it gave the model. */
  revision?: string | undefined;
  /** For a context snapshot: the sources its body was built from. */
  sources?: string[] | undefined;
  /** For a file-change notice: the changes the model was told about. */
  changes?: FileChange[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One source of a learning context with its state. */
export interface LearningContextSourceState {
  /** Space-relative path or `repa:` identity. */
  path: string;
  /** sha256 (hex) of the bytes the context was built from; null when none was recorded. */
  sha256: string | null;
  /** Compared with the space now (stat first, then the hash); `unversioned`: nothing to compare. */
  state: 'unchanged' | 'changed' | 'vanished' | 'unversioned';
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A space's learning context. */
export interface LearningContext {
  /** The full body of text given to the model. */
  body: string;
  /** The space-relative sources the body was built from. */
  sources: string[];
  /** Changes on every write; `context.set` compares it. */
  revision: string;
  /** When it was written (ISO 8601), when recorded. */
  updatedAt?: string | null | undefined;
  /** Each source with the sha256 it was built from and whether it changed or vanished since. */
  sourceStates?: LearningContextSourceState[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One step of a login as Pi reports it. */
export interface LoginProgress {
  /** The login (as `login.start` named it). */
  loginId: string;
  /** `info`, `auth_url`, `device_code`, `progress` or `prompt`. */
  kind: 'info' | 'auth_url' | 'device_code' | 'progress' | 'prompt';
  /** One line for people. */
  message: string;
  /** The address to open, for `auth_url` and `device_code`. */
  url?: string | undefined;
  /** The code to enter at `url`, for `device_code`. */
  userCode?: string | undefined;
  /** The prompt to answer with `login.answer`, for `prompt`. */
  promptId?: string | undefined;
  /** What the prompt asks for: `text`, `secret` (do not echo), `select` or `manual_code`. */
  promptType?: 'text' | 'secret' | 'select' | 'manual_code' | undefined;
  /** The choices of a `select` prompt. */
  options?:
    | {
        /** What `login.answer` sends back. */
        id: string;
        /** Shown to people. */
        label: string;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }[]
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `context.progress` params: one step of a `context.build`. */
export interface ContextProgressParams {
  /** The build. */
  buildId: string;
  /** `reading`, `extracting`, `model`, `retry` (Pi retries the model call) or `writing`. */
  step: string;
  /** One line for people. */
  message: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** An image given inline. */
export interface RunImageData {
  /** The image's kind: inline bytes. */
  kind: 'data';
  /** The image bytes, base64-encoded (at most 4 MiB decoded). */
  data: string;
  /** The image's MIME type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
}

/** An image file of the space. */
export interface RunImageFile {
  /** The image's kind: a file of the space. */
  kind: 'file';
  /**
   * A space path (relative to the root) or identity of an image file, read through the content
   * store.
   */
  path: string;
}

/** One image of a run's input: inline base64 bytes, or an image file of the space. */
export type RunImage = RunImageData | RunImageFile;

/** A document of the space the user points the run at. */
export interface RunAttachment {
  /**
   * A space path (relative to the root) or identity of a document (an outside material granted to
   * the space: `repa:material/<id>`), read at run start as the read tool reads it (PDFs and other
   * documents as their text).
   */
  path: string;
}

/** A run's input. */
export interface RunInput {
  /** The input's kind: only `text` today. */
  type: 'text';
  /** The user's request. */
  text: string;
  /**
   * Images sent with the request (at most 8, inline ones at most 5 MiB in all), given to the model
   * as image content.
   */
  images?: RunImage[] | undefined;
  /**
   * Documents of the space or granted materials attached to the request (at most 20), read when the
   * run starts.
   */
  attachments?: RunAttachment[] | undefined;
}

/** A document attached to a run, as the run read it. */
export interface AttachedSource {
  /**
   * The document's path relative to the space root, or an outside material's `repa:material/<id>`.
   */
  path: string;
  /** The version (sha256 of the bytes) the run read. */
  version: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One-run overrides of the model settings. */
export interface RunOverrides {
  /** `provider/id` of the model for this run only. */
  model?: string | undefined;
  /** Pi thinking level for this run only. */
  thinkingLevel?: ThinkingLevel | undefined;
  /** `tools.edits` for this run only: `auto`, `ask` or `off`. */
  edits?: EditsMode | undefined;
  /** `study.mode` for this run only: `answer` or `tutor`. */
  studyMode?: StudyMode | undefined;
}

/** Token usage and cost of one run, as the provider reported it. */
export interface RunUsage {
  /** Input tokens the provider billed (not counting cache reads). */
  input: number;
  /** Output tokens. */
  output: number;
  /** Input tokens read from the provider's cache. */
  cacheRead: number;
  /** Input tokens written to the provider's cache. */
  cacheWrite: number;
  /** All tokens of the run's calls. */
  totalTokens: number;
  /** Cost in US dollars from Pi's price table; absent when Pi knows no price for the model. */
  cost?: number | undefined;
  /** Model calls counted (retried attempts included). */
  calls: number;
  /** Pi's estimate of the session's context size after the run, in tokens (an estimate, R47). */
  contextTokensEstimate?: number | undefined;
  /** The model's context window, in tokens. */
  contextWindow?: number | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One image of a run's input as run records show it. */
export interface RunImageView {
  /** `data` (sent inline) or `file` (an image file of the space). */
  kind: 'data' | 'file';
  /** The MIME type of an inline image. */
  mimeType?: string | undefined;
  /** The size of an inline image in bytes. */
  bytes?: number | undefined;
  /** The space path or identity of an image file. */
  path?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A run's input as run records show it (inline image bytes left out). */
export interface RunInputView {
  /** The input's kind: only `text` today. */
  type: 'text';
  /** The user's request. */
  text: string;
  /** The request's images as recorded (inline bytes are not repeated in run records). */
  images?: RunImageView[] | undefined;
  /**
   * Documents of the space or granted materials attached to the request (at most 20), read when the
   * run starts.
   */
  attachments?: RunAttachment[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One run as the ledger keeps it. */
export interface RunInfo {
  /** The run's id. */
  runId: string;
  /** The client's request id (idempotency key). */
  requestId: string;
  /** The space root (an absolute path). */
  space: string;
  /** The session the run belongs to. */
  sessionId: string;
  /** The run's input. */
  input: RunInputView;
  /** Current status. */
  status: RunStatus;
  /** Attempt number, 1 for the first; a retry is a new run with `retryOf`. */
  attempt: number;
  /** The run this one retries. */
  retryOf?: string | undefined;
  /**
   * The interrupted or failed run this one resumes (same Pi session; its request is sent again only
   * when it never entered the history).
   */
  resumeOf?: string | undefined;
  /** How the request was delivered (absent: `new`). */
  delivery?: RunDelivery | undefined;
  /** For a queued run not started yet: its place in the session's queue, from 1. */
  queuePosition?: number | undefined;
  /** For a `steer` or `followUp` request: the run it was delivered into. */
  targetRunId?: string | undefined;
  /** The attached documents as the run read them, once it started. */
  attachedSources?: AttachedSource[] | undefined;
  /** The prompt settings decided at acceptance (spec R20). */
  promptSettings: PromptSettings;
  /** The settings revisions those prompt settings were built from, per level. */
  settingsRevisions: Record<string, number>;
  /**
   * The level each of those prompt settings came from (absent on runs recorded before servers kept
   * it).
   */
  settingsSources?: PromptSettingsSources | undefined;
  /**
   * The model settings decided at acceptance, one-run overrides included (absent on older runs).
   */
  modelSettings?: ModelSettings | undefined;
  /** Where each model setting came from (`run` for a one-run override). */
  modelSettingsSources?: ModelSettingsSources | undefined;
  /**
   * The model of the run (`provider/id`, `repa-offline` for the local responder), decided at
   * acceptance (older runs: once it started).
   */
  model?: string | undefined;
  /** Why the run uses that model (absent on runs recorded before servers kept it). */
  modelSource?: ModelSource | undefined;
  /**
   * The thinking level the run uses, decided at acceptance and clamped to the model (absent on
   * older runs).
   */
  thinkingLevel?: ThinkingLevel | undefined;
  /**
   * The connection it uses: provider and credential source, e.g. `anthropic:environment` (absent
   * for `repa-offline`).
   */
  connection?: string | undefined;
  /** The prompt section report of the run, once it started. */
  promptSections?: PromptSectionReport[] | undefined;
  /** What the space's restriction left out of the run (absent when the space is trusted). */
  restricted?: RestrictedItem[] | undefined;
  /**
   * The saves and commands the run asked the learner about (`tools.edits` `ask`), with their
   * answers (absent when none).
   */
  approvals?: ApprovalRecord[] | undefined;
  /** Why the run failed, was cancelled or interrupted. */
  error?: WireError | undefined;
  /** The final assistant text, once finished. */
  output?: string | undefined;
  /** The output's citations as checked when the run ended (absent when it has none). */
  citations?: Citation[] | undefined;
  /**
   * Set while the run's saves are rewound (absent when never rewound, or the rewind was undone).
   */
  rewound?:
    | {
        /** The rewind that undid it (`run.rewind` with it undoes that). */
        rewindId: string;
        /** When. */
        at: string;
      }
    | undefined;
  /**
   * The provider's token usage and cost of the run, once finished (absent if no provider call was
   * made, e.g. on `repa-offline`).
   */
  usage?: RunUsage | undefined;
  /** When the request was accepted. */
  acceptedAt: string;
  /** When the run actually started. */
  startedAt?: string | undefined;
  /** When the run ended. */
  endedAt?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A run's status changed. */
export interface RunStatusEvent {
  /** The event's kind. */
  type: 'status';
  /** The new status. */
  status: RunStatus;
  /** Why, for failed / cancelled / interrupted. */
  error?: WireError | undefined;
  /** On a terminal status: the answer's checked citations (absent when none). */
  citations?: Citation[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Assistant text streamed. */
export interface RunTextDeltaEvent {
  /** The event's kind. */
  type: 'text-delta';
  /** Assistant text as it streams. */
  delta: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A tool call started. */
export interface RunToolStartEvent {
  /** The event's kind. */
  type: 'tool-start';
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** The arguments the model gave. */
  args: unknown;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A tool call ended. */
export interface RunToolEndEvent {
  /** The event's kind. */
  type: 'tool-end';
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** Whether the tool reported an error to the model. */
  isError: boolean;
  /** Content operation id, for saving tools. */
  operationId?: string | undefined;
  /** Receipts of what reached disk. */
  receipts?: SaveReceipt[] | undefined;
  /** What each saved file changed, one per receipt that wrote or deleted text. */
  diffs?: SaveDiff[] | undefined;
  /** The error the tool returned. */
  error?: WireError | undefined;
  /** The pages of a document `read` sent to the model as images (spec R121). */
  images?: number[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A long tool call (a first read of a long or scanned document) tells its pages done. */
export interface RunToolProgressEvent {
  /** The event's kind. */
  type: 'tool-progress';
  /** Pi's tool call id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** What it works on, e.g. the document being read. */
  target: string;
  /** Pages done so far (spec R122). */
  done: number;
  /** Pages in all. */
  total: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A save or command waits for the learner (`tools.edits` `ask`). */
export interface RunApprovalRequestEvent {
  /** The event's kind. */
  type: 'approval-request';
  /** The approval request, unique within the run. */
  approvalId: string;
  /** Pi's tool call id of the save or command. */
  toolCallId: string;
  /** The tool that wants to save (or `bash`, to run a command). */
  toolName: string;
  /** For a save: the files it writes, moves or deletes. */
  targets?: string[] | undefined;
  /**
   * For a save: the exact change of every file it writes, moves or deletes, from the versions the
   * save is checked against (approved or refused as a whole).
   */
  diffs?: SaveDiff[] | undefined;
  /** For `bash`: the command line that would run. */
  command?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** An approval request was answered. */
export interface RunApprovalAnsweredEvent {
  /** The event's kind. */
  type: 'approval-answered';
  /** The approval request, unique within the run. */
  approvalId: string;
  /** Pi's tool call id of the save or command. */
  toolCallId: string;
  /** The tool that wants to save (or `bash`, to run a command). */
  toolName: string;
  /** For a save: the files it writes, moves or deletes. */
  targets?: string[] | undefined;
  /** For `bash`: the command line. */
  command?: string | undefined;
  /** Approved or refused. */
  decision: ApprovalDecision;
  /** Why it was refused, as the learner wrote it (the model is told). */
  reason?: string | undefined;
  /** True when this answer approved the rest of the run too ("yes to all"). */
  forRun?: boolean | undefined;
  /** True when an earlier "yes to all" of the run approved it: the learner was not asked. */
  covered?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The learning context was given to the model. */
export interface RunContextSnapshotEvent {
  /** The event's kind. */
  type: 'context-snapshot';
  /** The learning-context revision provided. */
  revision: string;
  /** Body length in characters. */
  chars: number;
  /** The sources the snapshot was built from. */
  sources: string[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The model was told about file changes. */
export interface RunFileChangeNoticeEvent {
  /** The event's kind. */
  type: 'file-change-notice';
  /** The changes the model was told about. */
  changes: FileChange[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Pi compacted the session's context. */
export interface RunCompactionEvent {
  /** The event's kind. */
  type: 'compaction';
  /** Start or end of Pi's compaction. */
  phase: 'start' | 'end';
  /** Pi's estimate before (an estimate, never exact). */
  tokensBefore?: number | undefined;
  /** Pi's estimate after (an estimate, never exact). */
  estimatedTokensAfter?: number | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Pi retries a failed model call. */
export interface RunRetryEvent {
  /** The event's kind. */
  type: 'retry';
  /** Pi's retry attempt, from 1. */
  attempt: number;
  /** Pi's retry budget. */
  maxAttempts: number;
  /** How long Pi waits before the attempt, in milliseconds. */
  delayMs: number;
  /** What the provider said about the failed attempt. */
  reason: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A `steer` request reached the model at a turn boundary of this run. */
export interface RunSteerDeliveredEvent {
  /** The event's kind. */
  type: 'steer-delivered';
  /** The steering text the model now sees. */
  text: string;
  /** The `steer` request's own record. */
  requestRunId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** A `followUp` request reached the model after this run's earlier work. */
export interface RunFollowUpDeliveredEvent {
  /** The event's kind. */
  type: 'follow-up-delivered';
  /** The follow-up text the model now sees. */
  text: string;
  /** The `followUp` request's own record. */
  requestRunId: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** The run's attached documents were read and given to the model. */
export interface RunSourcesAttachedEvent {
  /** The event's kind. */
  type: 'sources-attached';
  /** The attached documents given to the model, with the versions read. */
  sources: AttachedSource[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** What the model was told, section by section. */
export interface RunPromptSectionsEvent {
  /** The event's kind. */
  type: 'prompt-sections';
  /** What the model was told, section by section. */
  sections: PromptSectionReport[];
  /** What the space's restriction left out (absent when the space is trusted). */
  restricted?: RestrictedItem[] | undefined;
  /** What Pi packages brought to the session (absent when nothing). */
  packageResources?: PackageResource[] | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** One event of a run, streamed as a `run.event` notification. */
export type RunEvent =
  | RunStatusEvent
  | RunTextDeltaEvent
  | RunToolStartEvent
  | RunToolEndEvent
  | RunToolProgressEvent
  | RunApprovalRequestEvent
  | RunApprovalAnsweredEvent
  | RunContextSnapshotEvent
  | RunFileChangeNoticeEvent
  | RunCompactionEvent
  | RunRetryEvent
  | RunSteerDeliveredEvent
  | RunFollowUpDeliveredEvent
  | RunSourcesAttachedEvent
  | RunPromptSectionsEvent;

/** The `run.event` notification's params. */
export interface RunEventNotification {
  /** The run. */
  runId: string;
  /** The run's session. */
  sessionId: string;
  /** Per-run sequence number, from 1, without gaps. */
  seq: number;
  /** The event. */
  event: RunEvent;
}

/**
 * The `session.run` notification's params: a run of a session this connection follows
 * (`session.subscribe`) was accepted or moved in the queue; its `run.event` notifications follow.
 */
export interface SessionRunNotification {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
  /** The run as the ledger has it now (a queued one with its `queuePosition`). */
  run: RunInfo;
}

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
  protocolVersion: 'v1';
  /** The server's name and version, and the model it was started with, if any. */
  server: {
    /** The server's name. */
    name: string;
    /** The server's version. */
    version: string;
    /**
     * `provider/id` the daemon was started with (`--model`): the default of `model.id`; absent:
     * each run's model is decided when it is accepted.
     */
    model?: string | undefined;
  };
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `space.open` params. */
export interface SpaceOpenParams {
  /** The space root folder (an absolute path). */
  root: string;
  /**
   * True when the learner named this folder (`--space DIR`, design R17): the root of the file
   * system, the home folder and a folder holding Pi's agent dir or Repa's app dir become a space
   * only when named (`space_unsafe` otherwise); a folder once named stays a space.
   */
  named?: boolean | undefined;
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
    /**
     * Whether the learner trusts the space (spec R13); untrusted, what `restricted` lists has no
     * effect.
     */
    trusted?: boolean | undefined;
    /**
     * Why it is trusted: `user` (`space.trust`) or `created` (Repa made a plain folder a space).
     */
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
  /** The sessions of the space, the most recently changed first. */
  sessions: SessionInfo[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.resolve` params. */
export interface SessionResolveParams {
  /** The space root (an absolute path). */
  space: string;
  /** `latest`, a session id, or the first characters of one, as the learner typed it. */
  session: string;
}

/** `session.resolve` result. */
export interface SessionResolveResult {
  /** The session it names. */
  session: SessionInfo;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.history` params. */
export interface SessionHistoryParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
  /** Only the last this many items (default: all). */
  limit?: number | undefined;
  /**
   * Only the items before this entry id (a part read earlier begins with it); `not_found` when the
   * branch has no such entry.
   */
  before?: string | undefined;
}

/** `session.history` result. */
export interface SessionHistoryResult {
  /** The session's public history, oldest first. */
  items: HistoryItem[];
  /** True when items precede the first one returned (ask again with `before`). */
  earlier?: boolean | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.subscribe` params. */
export interface SessionSubscribeParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
}

/** `session.subscribe` result. */
export interface SessionSubscribeResult {
  /**
   * The session's runs accepted or running now, oldest first (queued ones with their
   * `queuePosition`); this connection gets their events from now on.
   */
  runs: RunInfo[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.unsubscribe` params. */
export interface SessionUnsubscribeParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
}

/** `session.unsubscribe` result. */
export interface SessionUnsubscribeResult {
  /** False when this connection did not follow the session. */
  unsubscribed: boolean;
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

/** `session.compact` params. */
export interface SessionCompactParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
  /**
   * Instructions for this summary, e.g. `keep the open questions`; they follow the standing
   * `compaction.instructions`.
   */
  instructions?: string | undefined;
}

/** `session.compact` result. */
export interface SessionCompactResult {
  /** The summary written. */
  summary: string;
  /**
   * What the model was sent before, in tokens: Pi's chars/4 estimate of the session's projection
   * (an estimate, spec R47).
   */
  tokensBefore: number;
  /** The same estimate after compacting, on the same basis as `tokensBefore`. */
  tokensAfter?: number | undefined;
  /** The instructions the summary was asked with (standing and given), if any. */
  instructions?: string | undefined;
  /**
   * Instructions given that Pi did not apply: it summarised only the start of the current turn,
   * which it does with its own prompt.
   */
  instructionsNotApplied?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `session.export` params. */
export interface SessionExportParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session. */
  sessionId: string;
  /** The export format. */
  format: 'markdown' | 'html' | 'jsonl';
  /** The character the part starts at (default 0). */
  offset?: number | undefined;
}

/** `session.export` result. */
export interface SessionExportResult {
  /** This part of the export. */
  content: string;
  /** The length of the whole export. */
  totalChars: number;
  /** Where the next part starts; absent on the last part. */
  nextOffset?: number | undefined;
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
  /** How many runs of the session were removed from the run ledger. */
  runsRemoved?: number | undefined;
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
   * How the request reaches the session (default `new`): `queue` waits behind the session's runs;
   * `steer` and `followUp` go into its active run (`no_active_run` when there is none).
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

/** `run.resolve` params. */
export interface RunResolveParams {
  /** `latest`, a run id, or the first characters of one, as the learner typed it. */
  run: string;
  /** The space whose most recent run `latest` means (required with `latest`). */
  space?: string | undefined;
  /** With `latest`: the session's most recent run instead of the space's. */
  sessionId?: string | undefined;
}

/** `run.resolve` result. */
export interface RunResolveResult {
  /** The run it names, as `run.get` answers it. */
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
  /**
   * Leaves out each run's `promptSections` (their texts are most of a run's size): for lists of
   * many runs; `run.get` has them.
   */
  brief?: boolean | undefined;
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

/** `run.approve` params. */
export interface RunApproveParams {
  /** The run. */
  runId: string;
  /** The approval request (from its event). */
  approvalId: string;
  /** Approve, approve the rest of the run too, or refuse. */
  answer: ApprovalAnswer;
  /** With `refuse`: why, told to the model with the refusal. */
  reason?: string | undefined;
}

/** `run.approve` result. */
export interface RunApproveResult {
  /** The request as the run record has it now. */
  approval: ApprovalRecord;
  /** True when this answer decided it; false when it was answered already. */
  answered: boolean;
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

/** `run.prune` params. */
export interface RunPruneParams {
  /** Runs that ended before this time (ISO 8601) are removed. */
  endedBefore: string;
  /** Only runs of this space (default: every space). */
  space?: string | undefined;
}

/** `run.prune` result. */
export interface RunPruneResult {
  /** How many runs were removed. */
  pruned: number;
  /** How many stored images no run used any more and were deleted. */
  imagesRemoved: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.diff` params. */
export interface RunDiffParams {
  /** The run, or a rewind id. */
  runId: string;
  /** Only this file (a path relative to the space root, either end of a move). */
  file?: string | undefined;
}

/** `run.diff` result. */
export interface RunDiffResult {
  /** The run. */
  runId: string;
  /** Each file the run changed, in target order. */
  files: RunFileDiff[];
  /** Files changed by `bash` commands of the run (no diff: commands keep no bytes). */
  commands: CommandChange[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `run.rewind` params. */
export interface RunRewindParams {
  /** The run to rewind, or a rewind id to undo that rewind. */
  runId: string;
  /** Only this save of the run (`<runId>-<n>`, as its receipt names it). */
  operationId?: string | undefined;
  /** Only these files (paths relative to the space root; either end of a move). */
  files?: string[] | undefined;
  /**
   * Also move the session's conversation back to before the run (a branch in Pi's session tree; the
   * old branch stays in the file).
   */
  conversation?: boolean | undefined;
  /**
   * Write the old bytes over files changed since the run too (each a new save, reported `forced`).
   */
  force?: boolean | undefined;
  /** Only report what would be restored and what refused; nothing is written. */
  preview?: boolean | undefined;
}

/** `run.rewind` result. */
export interface RunRewindResult {
  /** What the rewind did, or as a preview would do. */
  rewind: RewindResult;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `settings.get` params. */
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
  /** `provider/id` of the model for this build; default: the model the space's next run uses. */
  model?: string | undefined;
  /**
   * Refuse with `stale_version` unless the current revision is this (null: none); any when absent.
   */
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
    /**
     * Why: `window` when the model's window held no more, `read-limit` when a build reads only the
     * first 4 MiB of a source (absent from older daemons).
     */
    reason?: 'window' | 'read-limit' | undefined;
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

/** `doctor` params. */
export interface DoctorParams {
  /** A space: `models.next` tells the model its next run uses and why. */
  space?: string | undefined;
}

/** `doctor` result. */
export interface DoctorResult {
  /**
   * The model runs use when nothing chooses one, the models with credentials (never the keys) and,
   * with `space`, its next run.
   */
  models: {
    /**
     * `provider/id` of the model a run uses now when no level sets `model.id`: the daemon's
     * `--model`, else Pi's own default among the models with credentials, else `repa-offline`.
     */
    default: string;
    /** True when that is the offline responder (no model has credentials). */
    offline: boolean;
    /** `provider/id` of every model Pi has credentials for now (`repa-offline` not counted). */
    available: string[];
    /** Each provider with credentials and where they come from (never the keys). */
    credentials?:
      | {
          /** Pi's provider id. */
          provider: string;
          /** Where Pi finds its credentials. */
          credentialSource: CredentialSource;
          /** The environment variable's name, for `environment`. */
          credentialVariable?: string | undefined;
          /** How many of its models can be used. */
          models: number;
          /** Members a newer server may add. */
          [member: string]: unknown;
        }[]
      | undefined;
    /** The daemon's `--model`, when it was started with one. */
    daemonModel?: string | undefined;
    /** With `space`: the model the space's next run uses, and why. */
    next?: ModelDecision | undefined;
    /**
     * Part of Pi's configuration that could not be read (e.g. `models.json`: the file and the parse
     * error); the other models keep working.
     */
    configError?: WireError | undefined;
    /** Why Pi's configuration could not be read at all (then `default` is empty). */
    error?: WireError | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  };
  /**
   * When the daemon started (absent when no daemon answers): environment variables were read then;
   * Pi's files are read again when they change.
   */
  startedAt?: string | undefined;
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
    /** When Pi's files last changed (absent for a file that does not exist). */
    changedAt?:
      | {
          /** When `auth.json` last changed. */
          authJson?: string | undefined;
          /** When `models.json` last changed. */
          modelsJson?: string | undefined;
          /** When Pi's `settings.json` last changed. */
          settingsJson?: string | undefined;
          /** Members a newer server may add. */
          [member: string]: unknown;
        }
      | undefined;
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
  /** The application level's Pi packages (absent from older servers). */
  packages?:
    | {
        /** How many Pi packages the learner's Pi settings list. */
        configured: number;
        /** Pi's loading diagnostics of them, refused extensions included. */
        diagnostics: ResourceDiagnostic[];
        /** Why they could not be listed, if not. */
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
  /** A space: `next` tells the model its next run uses (nothing is created). */
  space?: string | undefined;
  /** With `space`: a session of it, whose settings level counts too for `next`. */
  sessionId?: string | undefined;
}

/** `models.list` result. */
export interface ModelsListResult {
  /** The models, credentialed first (`repa-offline` last of them), then by `provider/id`. */
  models: ModelInfo[];
  /**
   * `provider/id` of the model a run uses now when no level sets `model.id` (`repa-offline` for the
   * local responder).
   */
  default: string;
  /** With `space`: the model the space's next run uses, and why. */
  next?: ModelDecision | undefined;
  /**
   * Why part of Pi's configuration could not be read (e.g. `models.json` does not parse: the file
   * and the error); the other models are listed.
   */
  error?: WireError | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `models.next` params. */
export interface ModelsNextParams {
  /** The space root (an absolute path). */
  space: string;
  /** A session of the space, whose settings level counts too. */
  sessionId?: string | undefined;
}

/** `models.next` result. */
export interface ModelsNextResult {
  /** The model, its thinking level and why. */
  choice: ModelDecision;
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
  /** A space: `next` tells the model that space's next run uses. */
  space?: string | undefined;
}

/** `login.start` result. */
export interface LoginStartResult {
  /** The connection now configured: provider and credential source, e.g. `anthropic:auth-file`. */
  connection: string;
  /** The model the next run uses now (of `space`, else with no space setting). */
  next?: ModelDecision | undefined;
  /**
   * A key variable of this provider set in the daemon's environment (read when it started): the
   * stored key now takes precedence over it.
   */
  environmentVariable?: string | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `login.cancel` params. */
export interface LoginCancelParams {
  /** The login. */
  loginId: string;
}

/** `login.cancel` result. */
export interface LoginCancelResult {
  /** False when no such login is running (finished, or never started). */
  cancelled: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `login.logout` params. */
export interface LoginLogoutParams {
  /** Pi's provider id, e.g. `anthropic`. */
  provider: string;
  /** A space: `next` tells the model that space's next run uses. */
  space?: string | undefined;
}

/** `login.logout` result. */
export interface LoginLogoutResult {
  /** False when Pi had no stored credential for the provider. */
  removed: boolean;
  /** The connection the provider still has (e.g. `anthropic:environment`), when it has one. */
  connection?: string | undefined;
  /** The model the next run uses now (of `space`, else with no space setting). */
  next?: ModelDecision | undefined;
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

/** `settings.reset` result. */
export interface SettingsResetResult {
  /** The item afterwards. */
  item: SettingItemView;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `materials.list` params. */
export interface MaterialsListParams {
  /** Only the materials granted to this space. */
  space?: string | undefined;
}

/** `materials.list` result. */
export interface MaterialsListResult {
  /** The materials, in id order. */
  materials: MaterialInfo[];
  /** The grants file revision (sha256 of its bytes); null when there is no file yet. */
  revision: string | null;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `materials.add` params. */
export interface MaterialsAddParams {
  /** The file (an absolute path on the server). */
  path: string;
  /** Its id; default: made from its file name. */
  id?: string | undefined;
  /** The learner's title for it. */
  title?: string | undefined;
  /** The space it is granted to (with `allSpaces` absent or false). */
  space?: string | undefined;
  /** Grant it to every space instead of `space`. */
  allSpaces?: boolean | undefined;
  /** Refuse with `stale_version` unless the grants file is at this revision. */
  expectedRevision?: string | null | undefined;
}

/** `materials.add` result. */
export interface MaterialsAddResult {
  /** The material as granted now. */
  material: MaterialInfo;
  /** The grants file revision after the change. */
  revision: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `materials.remove` params. */
export interface MaterialsRemoveParams {
  /** The material. */
  id: string;
  /** Refuse with `stale_version` unless the grants file is at this revision. */
  expectedRevision?: string | null | undefined;
}

/** `materials.remove` result. */
export interface MaterialsRemoveResult {
  /** False when no material had this id. */
  removed: boolean;
  /** The grants file revision (sha256 of its bytes); null when there is no file yet. */
  revision: string | null;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `packages.list` params. */
export interface PackagesListParams {
  /** A space: its own packages too, and what its sessions load. */
  space?: string | undefined;
}

/** `packages.list` result. */
export interface PackagesListResult {
  /** The configured packages, application first. */
  packages: ConfiguredPackage[];
  /**
   * What a new session loads from packages and Pi folders (extensions, tools, skills, prompt
   * templates).
   */
  resources: PackageResource[];
  /** Pi's loading diagnostics, including extensions Repa refused. */
  diagnostics: ResourceDiagnostic[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `packages.add` params. */
export interface PackagesAddParams {
  /**
   * A Pi package source: an absolute local folder, `npm:name[@version]` or a git URL (`git:`,
   * `https:`, `ssh:`); npm and git need Pi to be online.
   */
  source: string;
  /**
   * `application` (default: the learner's own Pi settings) or `space` (the space's
   * `.pi/settings.json`; the space must be trusted).
   */
  level?: PackageLevel | undefined;
  /** The space (required for level `space`). */
  space?: string | undefined;
}

/** `packages.add` result. */
export interface PackagesAddResult {
  /** The package as now configured. */
  package: ConfiguredPackage;
  /** False when the settings already listed it. */
  added: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `packages.remove` params. */
export interface PackagesRemoveParams {
  /**
   * A Pi package source: an absolute local folder, `npm:name[@version]` or a git URL (`git:`,
   * `https:`, `ssh:`); npm and git need Pi to be online.
   */
  source: string;
  /**
   * `application` (default: the learner's own Pi settings) or `space` (the space's
   * `.pi/settings.json`; the space must be trusted).
   */
  level?: PackageLevel | undefined;
  /** The space (required for level `space`). */
  space?: string | undefined;
}

/** `packages.remove` result. */
export interface PackagesRemoveResult {
  /** False when the settings did not list it. */
  removed: boolean;
  /**
   * Runs under way now, which finish with what their session loaded; every session's next run loads
   * without the package.
   */
  activeRuns: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `space.list` params. */
export type SpaceListParams = Record<string, never>;

/** `space.list` result. */
export interface SpaceListResult {
  /** The known spaces, the most recently opened first; vanished folders marked. */
  spaces: {
    /** The space root (the real path it had when it was opened). */
    root: string;
    /** The folder's name. */
    name: string;
    /** When the daemon last opened it (ISO 8601). */
    openedAt: string;
    /** True when no folder is at `root` any more (moved or deleted since). */
    missing: boolean;
    /** Whether the learner trusts the space (spec R13). */
    trusted: boolean;
    /** Members a newer server may add. */
    [member: string]: unknown;
  }[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `files.list` params. */
export interface FilesListParams {
  /** The space root (an absolute path). */
  space: string;
  /** The folder, relative to the space root; default: the root. */
  path?: string | undefined;
  /** The most entries to give (default and most: 1000). */
  limit?: number | undefined;
}

/** `files.list` result. */
export interface FilesListResult {
  /** The folder listed, relative to the space root (`""`: the root). */
  folder: string;
  /** Its entries by name (case-insensitive), folders and files mixed. */
  entries: {
    /** Its name. */
    name: string;
    /** Its path relative to the space root (`/`-separated; a symlink's own path). */
    path: string;
    /** Whether it is a folder (list it with `files.list`). */
    folder: boolean;
    /** A file's size in bytes. */
    size?: number | undefined;
    /** True for a PDF, DOCX, EPUB or HTML file, read as its text with page markers. */
    document?: boolean | undefined;
    /**
     * Why no path of the space names it, as opening it says (its name is not UTF-8, or holds a
     * control character or a backslash); then `name` and `path` show the name escaped (`a\nb.md`,
     * `bad\xFF.md`) and it cannot be opened or listed.
     */
    problem?: string | undefined;
    /** Members a newer server may add. */
    [member: string]: unknown;
  }[];
  /** How many entries were left out past `limit`. */
  more: number;
  /** Entries skipped because `.gitignore`, `node_modules` or `.git` covers them. */
  ignored: number;
  /** Symlinks not followed because they leave the space (or point into `.repa`). */
  symlinksLeaving: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `files.read` params. */
export interface FilesReadParams {
  /** The space root (an absolute path). */
  space: string;
  /**
   * A space path (relative to the root) or an identity (`repa:document/<id>`, or
   * `repa:material/<id>` for a granted outside material).
   */
  path: string;
}

/** `files.read` result. */
export interface FilesReadResult {
  /** The file's path relative to the space root, or the material's identity. */
  path: string;
  /** The file's identity (`repa:document/…` or `repa:material/…`). */
  identity: string;
  /** The version read (sha256 of the bytes). */
  version: string;
  /** The file's size in bytes. */
  bytes: number;
  /** The text (the first `maxChars` characters at most, whole lines). */
  text: string;
  /** How many lines the whole text has. */
  lines: number;
  /** True when `text` is only the first lines (the reader bound: 1,000,000 characters). */
  truncated: boolean;
  /** For a document read as its text: its format and parts (pages or chapters). */
  document?:
    | {
        /** Its format. */
        format: 'pdf' | 'docx' | 'epub' | 'html' | 'image';
        /** What a part is; absent for a document of one part (DOCX, HTML). */
        unit?: 'page' | 'chapter' | undefined;
        /** Where each part begins, in order. */
        parts: {
          /** The line (from 1) of the part's marker line. */
          line: number;
          /** The chapter's title, when it has one. */
          title?: string | undefined;
          /** True when the part has no text (a scanned page). */
          empty?: boolean | undefined;
          /** Why the part could not be read, when it could not. */
          failed?: string | undefined;
          /** When the page had no text layer and its text was recognised by OCR (spec R120). */
          recognised?:
            | {
                /** The OCR engine and languages, e.g. `tesseract 5.3.0 (eng)`. */
                engine: string;
                /** The engine's mean word confidence, 0 to 100. */
                confidence: number;
                /** Members a newer server may add. */
                [member: string]: unknown;
              }
            | undefined;
          /** Why a page without a text layer was not recognised (no OCR engine or language). */
          unrecognised?: string | undefined;
          /** Members a newer server may add. */
          [member: string]: unknown;
        }[];
        /** Members a newer server may add. */
        [member: string]: unknown;
      }
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.draft` params. */
export interface StudyDraftParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session the draft run belongs to (a new one keeps it apart). */
  sessionId: string;
  /** Client-chosen idempotency key: resubmitting it returns the original run. */
  requestId: string;
  /**
   * The passage: `notes/x.md`, `notes/x.md:12-18`, `book.pdf#p2` or `book.pdf#p2:3-9` (one of
   * `passage` and `card`).
   */
  passage?: string | undefined;
  /** A card to redraft from the passage its comment cites (one of `passage` and `card`). */
  card?:
    | {
        /** The card to redraft. */
        id: string;
        /** The note holding it. */
        note: string;
      }
    | undefined;
  /** Model settings for this run only, over every settings level. */
  overrides?: RunOverrides | undefined;
}

/** `study.draft` result. */
export interface StudyDraftResult {
  /** The accepted (or original) draft run. */
  run: RunInfo;
  /** True when this request id was already accepted and the original run is returned. */
  resubmitted: boolean;
  /** The passage the run drafts from, as the request names it. */
  passage: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.drafted` params. */
export interface StudyDraftedParams {
  /** The draft run. */
  runId: string;
}

/** `study.drafted` result. */
export interface StudyDraftedResult {
  /** The draft run. */
  runId: string;
  /** The passage asked for. */
  passage: string;
  /**
   * Where accepted cards go by default: `cards/<source name>.md`, or the note of the redrafted
   * card.
   */
  note: string;
  /** For a redraft: the id of the card it replaces. */
  redraft?: string | undefined;
  /** The cards kept, in the order written. */
  cards: DraftedCard[];
  /** The cards dropped, each with its reason. */
  dropped: DroppedCard[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.accept` params. */
export interface StudyAcceptParams {
  /** The draft run, or the quiz run. */
  runId: string;
  /** The cards to save, in the order given. */
  cards: {
    /** A card `study.drafted` kept, or a question `study.quizzed` kept. */
    id: string;
    /** The learner's edited front (default: as drafted). */
    front?: string | undefined;
    /** The learner's edited back (default: as drafted; empty for a cloze card). */
    back?: string | undefined;
  }[];
  /**
   * The Markdown note to save them in, relative to the space root (default: `study.drafted`’s
   * `note`).
   */
  note?: string | undefined;
}

/** `study.accept` result. */
export interface StudyAcceptResult {
  /** The draft run the save belongs to. */
  runId: string;
  /** The note written. */
  note: string;
  /** The ids of the cards saved. */
  cards: string[];
  /** Of those, the ids whose earlier card was replaced. */
  replaced: string[];
  /** The save's receipt. */
  receipts: SaveReceipt[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.due` params. */
export interface StudyDueParams {
  /** The space root (an absolute path). */
  space: string;
  /** Only the cards of a folder (`notes/bio`) or of notes with a tag (`#bio`). */
  deck?: string | undefined;
  /** The most cards to give (default 100). */
  limit?: number | undefined;
  /**
   * The time to compute at (default: the daemon's clock): for tests and tools that replay reviews.
   */
  now?: string | undefined;
}

/** `study.due` result. */
export interface StudyDueResult {
  /** The due cards given. */
  cards: StudyDueCard[];
  /** How many cards are due in all. */
  total: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.rate` params. */
export interface StudyRateParams {
  /** The space root (an absolute path). */
  space: string;
  /** A card's id (from its Repa comment, or derived from its note and front). */
  card: string;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
  rating: number;
  /** How long the review took, in milliseconds. */
  durationMs?: number | undefined;
  /** How the card was reviewed (default `flip`). */
  mode?: 'flip' | 'typed' | 'quiz' | 'tutor' | undefined;
  /**
   * The time to compute at (default: the daemon's clock): for tests and tools that replay reviews.
   */
  now?: string | undefined;
}

/** `study.rate` result. */
export interface StudyRateResult {
  /** The card with its new state. */
  card: StudyCard;
  /** The time the rating was recorded at. */
  reviewedAt: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.undo` params. */
export interface StudyUndoParams {
  /** The space root (an absolute path). */
  space: string;
}

/** `study.undo` result. */
export interface StudyUndoResult {
  /** The rating taken back; null when there was none. */
  undone: {
    /** The card whose rating was taken back. */
    card: string;
    /** The rating taken back. */
    rating: number;
    /** When it had been given. */
    reviewedAt: string;
    /** Members a newer server may add. */
    [member: string]: unknown;
  } | null;
  /** The card's state now (null: it is new again, or nothing was undone). */
  fsrs: StudyCardState | null;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.status` params. */
export interface StudyStatusParams {
  /** The space root (an absolute path). */
  space: string;
  /** Only this source (a cited document, or a note for its hand-written cards). */
  source?: string | undefined;
  /** Only the cards of a folder (`notes/bio`) or of notes with a tag (`#bio`). */
  deck?: string | undefined;
  /** The IANA time zone whose days the calendar counts (`Europe/Berlin`; default: the daemon's). */
  timeZone?: string | undefined;
  /**
   * The time to compute at (default: the daemon's clock): for tests and tools that replay reviews.
   */
  now?: string | undefined;
}

/** `study.status` result. */
export interface StudyStatusResult {
  /** The time computed at. */
  at: string;
  /** One entry per source and version. */
  sources: StudyProgress[];
  /** The next 14 local days, today first, with the sources' counts added up. */
  calendar: StudyCalendarDay[];
  /** The cards whose source changed, with the old and new lines. */
  changed: StudyCard[];
  /** The answers whose question was asked on a version the document no longer has. */
  changedQuestions: StudyChangedQuestion[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.export` params. */
export interface StudyExportParams {
  /** The space root (an absolute path). */
  space: string;
  /** Only the cards of a folder (`notes/bio`) or of notes with a tag (`#bio`). */
  deck?: string | undefined;
}

/** `study.export` result. */
export interface StudyExportResult {
  /** Anki's text import with file headers. */
  format: 'anki-text';
  /** The file to import. */
  text: string;
  /** How many cards it holds. */
  cards: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.quiz` params. */
export interface StudyQuizParams {
  /** The space root (an absolute path). */
  space: string;
  /** The session the quiz and its grade runs belong to. */
  sessionId: string;
  /** Client-chosen idempotency key: resubmitting it returns the original run. */
  requestId: string;
  /** The passage: `notes/x.md`, `notes/x.md:12-18`, `book.pdf#p2`, `book.pdf#p2:3-9`. */
  passage: string;
  /** How many questions (default 3). */
  count?: number | undefined;
  /** Model settings for this run only, over every settings level. */
  overrides?: RunOverrides | undefined;
}

/** `study.quiz` result. */
export interface StudyQuizResult {
  /** The accepted (or original) quiz run. */
  run: RunInfo;
  /** True when this request id was already accepted and the original run is returned. */
  resubmitted: boolean;
  /** The passage the quiz asks about. */
  passage: string;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.quizzed` params. */
export interface StudyQuizzedParams {
  /** The quiz run. */
  runId: string;
}

/** `study.quizzed` result. */
export interface StudyQuizzedResult {
  /** The quiz run (the quiz id). */
  runId: string;
  /** The passage asked for. */
  passage: string;
  /** Where a question made a card goes by default: `cards/<source name>.md`. */
  note: string;
  /** The questions kept, in the order written. */
  questions: QuizQuestion[];
  /** The questions dropped, each with its reason. */
  dropped: DroppedCard[];
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.answer` params. */
export interface StudyAnswerParams {
  /** The quiz run. */
  runId: string;
  /** The question id (`study.quizzed`). */
  question: string;
  /** The learner's answer, in their own words. */
  answer: string;
  /** A second try: the grade run of the first try (it graded Again or Hard). */
  after?: string | undefined;
  /** Client-chosen idempotency key: resubmitting it returns the original run. */
  requestId: string;
  /** Model settings for this run only, over every settings level. */
  overrides?: RunOverrides | undefined;
}

/** `study.answer` result. */
export interface StudyAnswerResult {
  /** The accepted (or original) grade run. */
  run: RunInfo;
  /** True when this request id was already accepted and the original run is returned. */
  resubmitted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.check` params. */
export interface StudyCheckParams {
  /** The tutor run (`study.mode` `tutor`) whose reply the answer answers. */
  runId: string;
  /** The learner's answer, in their own words. */
  answer: string;
  /** The number of the reply's citation to check against (default: its first verified one). */
  citation?: number | undefined;
  /** A second try: the grade run of the first try (it graded Again or Hard). */
  after?: string | undefined;
  /** Client-chosen idempotency key: resubmitting it returns the original run. */
  requestId: string;
  /** Model settings for this run only, over every settings level. */
  overrides?: RunOverrides | undefined;
}

/** `study.check` result. */
export interface StudyCheckResult {
  /** The accepted (or original) grade run. */
  run: RunInfo;
  /** True when this request id was already accepted and the original run is returned. */
  resubmitted: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.graded` params. */
export interface StudyGradedParams {
  /** The grade run. */
  runId: string;
}

/** `study.graded` result. */
export interface StudyGradedResult {
  /** The grade run. */
  runId: string;
  /** The quiz run (absent for a tutor check). */
  quiz?: string | undefined;
  /** The question id (absent for a tutor check). */
  question?: string | undefined;
  /** A tutor check: the tutor run whose reply was checked (the log entry’s set). */
  tutor?: string | undefined;
  /** A tutor check: the number of the reply's citation graded against. */
  citation?: number | undefined;
  /** 1: the first try; 2: the second. */
  attempt: number;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
  grade: number;
  /** The passage's words the answer missed, quoted (empty: nothing missing). */
  missing: string;
  /** A missing quote the grader gave that is not words of the passage (not kept). */
  droppedMissing?: string | undefined;
  /** Who graded: the model's `provider/id`, or `passage-words` offline. */
  grader: string;
  /** Whether this grade stands (false: a hint and a second try). */
  final: boolean;
  /** For a second try: a hint that does not give the answer. */
  hint: string | null;
  /** With a final grade: the entry recorded in the study log. */
  answer: {
    /** The answer entry (what `study.override` names). */
    id: string;
    /** How much help came before the grade. */
    help: 'none' | 'hint' | 'passage';
    /** The learner's answers, first try first. */
    answers: string[];
    /** The version of the passage graded against. */
    version: string;
    /** Members a newer server may add. */
    [member: string]: unknown;
  } | null;
  /** With a final grade: the passage graded against. */
  passage: {
    /** The cited passage. */
    cite: string;
    /** Its lines. */
    quote: string;
    /** Members a newer server may add. */
    [member: string]: unknown;
  } | null;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** `study.override` params. */
export interface StudyOverrideParams {
  /** The space root (an absolute path). */
  space: string;
  /** The answer entry (`study.graded`). */
  answer: string;
  /** The learner's grade: 1 Again, 2 Hard, 3 Good, 4 Easy. */
  grade: number;
}

/** `study.override` result. */
export interface StudyOverrideResult {
  /** The override entry. */
  id: string;
  /** The answer it overrides. */
  answer: string;
  /** The grade given, kept beside it. */
  given: number;
  /** The learner's grade. */
  grade: number;
  /** Members a newer server may add. */
  [member: string]: unknown;
}

/** Every v1 method name with the interfaces of its params and result. */
export interface V1MethodTypes {
  /** Negotiates the protocol version; the first call on every connection. */
  initialize: { params: InitializeParams; result: InitializeResult };
  /** Opens a space folder and describes it (name, learning context). */
  'space.open': { params: SpaceOpenParams; result: SpaceOpenResult };
  /** Creates a session in a space. */
  'session.create': { params: SessionCreateParams; result: SessionCreateResult };
  /**
   * Lists the sessions of a space, the most recently changed first; damaged ones carry `damaged`.
   */
  'session.list': { params: SessionListParams; result: SessionListResult };
  /**
   * The session a learner named, by the one rule every client uses: `latest` (the most recently
   * changed of the sessions the space shows), a session id, or the first characters of one.
   * `not_found` when none fits (or the space has no sessions, for `latest`); `invalid_request` with
   * `details.candidates` (at most 5 ids) when several sessions start with it.
   */
  'session.resolve': { params: SessionResolveParams; result: SessionResolveResult };
  /**
   * The public history of a session (spec R27), whole or in parts: `limit` takes the last items
   * (before `before`), and `earlier` says more precede them.
   */
  'session.history': { params: SessionHistoryParams; result: SessionHistoryResult };
  /**
   * Follows a session's runs, whoever submitted them (another client, another tab, the queue): this
   * connection gets a `session.run` notification when one of its runs is accepted or moves in the
   * queue, and that run's `run.event` notifications, until the connection closes or
   * `session.unsubscribe`.
   */
  'session.subscribe': { params: SessionSubscribeParams; result: SessionSubscribeResult };
  /**
   * Stops following a session's new runs (`session.subscribe`); the runs already followed send
   * their events to their end.
   */
  'session.unsubscribe': { params: SessionUnsubscribeParams; result: SessionUnsubscribeResult };
  /** Gives a session a new title. */
  'session.rename': { params: SessionRenameParams; result: SessionRenameResult };
  /**
   * Compacts a session's history now through Pi's compaction: a summary of its older part stands
   * for it in what the model sees from then on (the raw history keeps everything). `busy` while one
   * of its runs is accepted or running; `invalid_request` when there is too little to compact.
   */
  'session.compact': { params: SessionCompactParams; result: SessionCompactResult };
  /**
   * A session exported for reading or keeping: `markdown` (its history with tool calls, tool
   * results with the receipts of saves, learning-context snapshots, notices, summaries and each
   * run's record), `html` (Pi's own HTML export) or `jsonl` (Pi's session file as it is). Long
   * exports come in parts: ask again from `nextOffset`.
   */
  'session.export': { params: SessionExportParams; result: SessionExportResult };
  /**
   * Deletes a session's file and removes its runs from the run ledger (their stored images too,
   * when no other run uses them); `busy` while one of its runs is accepted or running.
   */
  'session.delete': { params: SessionDeleteParams; result: SessionDeleteResult };
  /** Records whether the learner trusts a space (kept in the app directory; spec R13). */
  'space.trust': { params: SpaceTrustParams; result: SpaceTrustResult };
  /** Accepts a run (idempotent by `requestId`) and subscribes this connection to its events. */
  'run.submit': { params: RunSubmitParams; result: RunSubmitResult };
  /** One run as the ledger keeps it. */
  'run.get': { params: RunGetParams; result: RunGetResult };
  /**
   * The run a learner named, by the one rule every client uses: a run id, the first characters of
   * one (among every run of the ledger), or `latest`: the most recent run of `space` (or of its
   * session `sessionId`), where a steer or follow-up message counts as the run it went into.
   * `not_found` when none fits; `invalid_request` with `details.candidates` (at most 5 ids) when
   * several runs start with it.
   */
  'run.resolve': { params: RunResolveParams; result: RunResolveResult };
  /** Runs, newest first, filtered by space, session and status. */
  'run.list': { params: RunListParams; result: RunListResult };
  /** Subscribes this connection to `run.event` notifications of a run. */
  'run.subscribe': { params: RunSubscribeParams; result: RunSubscribeResult };
  /** Cancels a run; answers the run as it is then. */
  'run.cancel': { params: RunCancelParams; result: RunCancelResult };
  /**
   * Answers a running run's approval request (`tools.edits` `ask`): the first answer wins; a later
   * one, or one after the run ended, changes nothing and gets the request as it stands (`answered:
   * false`). `not_found` for a request the run never made.
   */
  'run.approve': { params: RunApproveParams; result: RunApproveResult };
  /**
   * Retries a finished run as a new run (idempotent by `requestId`) and subscribes this connection
   * to it.
   */
  'run.retry': { params: RunRetryParams; result: RunRetryResult };
  /**
   * Resumes an interrupted or failed run as a new attempt in the same Pi session with the
   * original's accepted settings: when its request entered the history, from where the history ends
   * (no repeated user message, Pi's retries as in any run); when it never did, its own request is
   * sent now. `not_last_run` when a later run of the session entered the history.
   */
  'run.resume': { params: RunResumeParams; result: RunResumeResult };
  /**
   * Removes from the run ledger the runs that ended before a time, except those a kept run refers
   * to (as a retry, resumption or delivery), and the stored images only they used. Sessions and
   * their histories stay.
   */
  'run.prune': { params: RunPruneParams; result: RunPruneResult };
  /**
   * What a run (or a rewind) changed, file by file, as unified diffs from the bytes its saves
   * replaced and wrote (kept under the space's `.repa/history/`).
   */
  'run.diff': { params: RunDiffParams; result: RunDiffResult };
  /**
   * Restores each file a finished run saved to its version before the run, where it is still
   * exactly the run's last version; a file changed since is refused with `stale_version` unless
   * `force`. The rewind's own saves have receipts, so it can be rewound in turn (its `rewindId` as
   * `runId`).
   */
  'run.rewind': { params: RunRewindParams; result: RunRewindResult };
  /** Every settings item as the given scope sees it. */
  'settings.get': { params: SettingsGetParams; result: SettingsGetResult };
  /** Stores the complete value of one item at one level. */
  'settings.set': { params: SettingsSetParams; result: SettingsSetResult };
  /** A space's learning context. */
  'context.get': { params: ContextGetParams; result: ContextGetResult };
  /** Replaces a space's learning context (compare-and-set on its revision). */
  'context.set': { params: ContextSetParams; result: ContextSetResult };
  /**
   * Builds a space's learning context from documents (progress as `context.progress`); nothing is
   * written unless it completes.
   */
  'context.build': { params: ContextBuildParams; result: ContextBuildResult };
  /** Cancels a running `context.build`; nothing is written. */
  'context.cancel': { params: ContextCancelParams; result: ContextCancelResult };
  /**
   * Pi's configuration as the daemon sees it now, the model a space's next run uses and why, and
   * the sandbox, for diagnosis (never secrets).
   */
  doctor: { params: DoctorParams; result: DoctorResult };
  /**
   * The models Pi knows (and `repa-offline`), with where their credentials come from (never the
   * secrets).
   */
  'models.list': { params: ModelsListParams; result: ModelsListResult };
  /**
   * The model and thinking level a space's next run uses and why, decided as `run.submit` decides
   * it.
   */
  'models.next': { params: ModelsNextParams; result: ModelsNextResult };
  /**
   * Signs in to a provider through Pi's own login (API key or OAuth), telling its steps as
   * `login.progress` to this connection; Pi stores the credential in its `auth.json`, and the next
   * run uses it (no restart). An empty key is refused and nothing is stored; a cancelled or
   * timed-out login stores nothing.
   */
  'login.start': { params: LoginStartParams; result: LoginStartResult };
  /**
   * Cancels a running login (a sign-in the learner closed): its waiting prompt ends, `login.start`
   * fails with `cancelled`, and nothing is stored. Closing the connection cancels its logins too.
   */
  'login.cancel': { params: LoginCancelParams; result: LoginCancelResult };
  /**
   * Removes Pi's stored credential of a provider through Pi (its `auth.json` entry); the next run
   * no longer uses it.
   */
  'login.logout': { params: LoginLogoutParams; result: LoginLogoutResult };
  /** Answers a `prompt` step of a running login (the key, a code or a choice). */
  'login.answer': { params: LoginAnswerParams; result: LoginAnswerResult };
  /** Removes one item's value at one level. */
  'settings.reset': { params: SettingsResetParams; result: SettingsResetResult };
  /**
   * The granted outside materials with their state now; with `space`, those that space may read.
   */
  'materials.list': { params: MaterialsListParams; result: MaterialsListResult };
  /**
   * Grants an outside file (PDF, DOCX, EPUB, HTML or text) read-only to one space or to every
   * space.
   */
  'materials.add': { params: MaterialsAddParams; result: MaterialsAddResult };
  /** Withdraws the grant of a material (the file itself is untouched). */
  'materials.remove': { params: MaterialsRemoveParams; result: MaterialsRemoveResult };
  /**
   * Lists the Pi packages configured for the application and, with `space`, for that space (only
   * when it is trusted), with what a new session of that space loads from them and Pi's loading
   * diagnostics.
   */
  'packages.list': { params: PackagesListParams; result: PackagesListResult };
  /**
   * Installs a Pi package through Pi's package manager and adds it to the level's Pi settings; each
   * session's next run loads it. npm and git sources are refused with `offline` while Pi is kept
   * offline.
   */
  'packages.add': { params: PackagesAddParams; result: PackagesAddResult };
  /**
   * Removes a Pi package through Pi's package manager (and from the level's Pi settings). A run
   * under way finishes with what its session loaded; each session's next run starts without it.
   */
  'packages.remove': { params: PackagesRemoveParams; result: PackagesRemoveResult };
  /** The spaces the daemon has opened (kept in the app directory), the last opened first. */
  'space.list': { params: SpaceListParams; result: SpaceListResult };
  /**
   * One folder of a space, as the `ls` tool sees it: `.repa` never listed, symlinks leaving the
   * space not followed, `.gitignore`d paths, `node_modules` and `.git` skipped; readable in a space
   * not trusted yet.
   */
  'files.list': { params: FilesListParams; result: FilesListResult };
  /**
   * A file's text for the reader, as the `read` tool reads it: text as it is, a PDF, DOCX, EPUB or
   * HTML file as its text with a marker line before each page or chapter; other binary files are
   * refused (`unsupported_content`).
   */
  'files.read': { params: FilesReadParams; result: FilesReadResult };
  /**
   * Drafts study cards from a passage as a run (its input: a Repa-owned request naming the passage
   * and the card format) and subscribes this connection to its events. With `card`, redrafts that
   * card from the passage its comment cites, to replace it keeping its id. Read the proposals with
   * `study.drafted` once the run succeeded.
   */
  'study.draft': { params: StudyDraftParams; result: StudyDraftResult };
  /**
   * The cards a succeeded draft run proposed: those whose citation verified against what the run
   * read, inside the passage asked for, whose front keeps its answer hidden (`cards`), and every
   * other with its reason (`dropped`). `invalid_request` for a run that is no draft or did not
   * succeed; `busy` while it runs.
   */
  'study.drafted': { params: StudyDraftedParams; result: StudyDraftedResult };
  /**
   * Saves the chosen cards of a draft run (with the learner's edits), or questions of a quiz run
   * made cards (a cloze as written, else the question and its passage), into a note as one save of
   * that run (`<runId>-<n>`), so `run.rewind` of the run removes them: appended to the note
   * (created when missing), or in place of the card with the same id (a redraft). Each card is its
   * Obsidian-syntax lines followed by its `<!--repa:card …-->` comment.
   */
  'study.accept': { params: StudyAcceptParams; result: StudyAcceptResult };
  /**
   * The cards due now (new ones included), learning cards first, then reviews by due time, then new
   * cards in note order; each with its source's status and what each rating would do.
   */
  'study.due': { params: StudyDueParams; result: StudyDueResult };
  /**
   * Rates a card (1 Again, 2 Hard, 3 Good, 4 Easy): one line appended to the review log and fsynced
   * before the answer; returns its new state.
   */
  'study.rate': { params: StudyRateParams; result: StudyRateResult };
  /** Takes back the last rating that stands (an undo line in the review log; nothing is erased). */
  'study.undo': { params: StudyUndoParams; result: StudyUndoResult };
  /**
   * Progress per source document and version: new, learning, review and due cards, recall
   * probability now, ratings, graded answers by help given, last studied, cards and questions whose
   * source changed, and the reviews due on each of the next 14 local days.
   */
  'study.status': { params: StudyStatusParams; result: StudyStatusResult };
  /**
   * The cards as Anki's text import (tab-separated, HTML, the card id as each note's GUID:
   * importing a later export updates instead of duplicating).
   */
  'study.export': { params: StudyExportParams; result: StudyExportResult };
  /**
   * Starts a quiz on a passage as a run (its input: a Repa-owned request naming the passage, the
   * count and the question format) and subscribes this connection to its events. Read the questions
   * with `study.quizzed` once the run succeeded; its run id is the quiz id.
   */
  'study.quiz': { params: StudyQuizParams; result: StudyQuizResult };
  /**
   * The questions a succeeded quiz run wrote: those whose citation verified against what the run
   * read, inside the passage asked for (a cloze hiding its words), the first `count` of them
   * (`questions`), and every other with its reason (`dropped`). `invalid_request` for a run that is
   * no quiz or did not succeed; `busy` while it runs.
   */
  'study.quizzed': { params: StudyQuizzedParams; result: StudyQuizzedResult };
  /**
   * Grades the learner's answer to a quiz question as a run in the quiz's session, with no editing
   * tools (its request holds the cited passage, the question and the answer; the model grades
   * against the passage only). With `after`, it is the second try after that first try's grade run
   * graded Again or Hard. Read the grade with `study.graded`.
   */
  'study.answer': { params: StudyAnswerParams; result: StudyAnswerResult };
  /**
   * Checks the learner's answer to a tutor's reply against a passage the reply cites (spec R114): a
   * grade run like `study.answer`'s, in a session of its own (a second try in the first try's),
   * offered no editing tools; its request holds the cited lines of the version the tutor run read,
   * the learner's own request to the tutor as the question, and the answer. `invalid_request` when
   * the run is not in tutor mode, when the cited passage is not verified or changed since; `busy`
   * while the tutor run runs. Read the grade with `study.graded`.
   */
  'study.check': { params: StudyCheckParams; result: StudyCheckResult };
  /**
   * The grade of a succeeded grade run (of a quiz answer, `study.answer`, or of a tutor check,
   * `study.check`): Again/Hard/Good/Easy against the cited passage with the quote of what was
   * missing (kept only when it is words of the passage). A first try graded Again or Hard is not
   * final: it gives a hint for a second try. A final grade is recorded once in the study log as an
   * `answer` entry (origin `quiz`, or `tutor` with `tutor` set; help `none`, `hint`, or `passage`
   * when the second try was wrong too) and comes with the passage.
   */
  'study.graded': { params: StudyGradedParams; result: StudyGradedResult };
  /**
   * Records the learner's own grade for an answer beside the one given (an `override` entry in the
   * study log; the given grade stays).
   */
  'study.override': { params: StudyOverrideParams; result: StudyOverrideResult };
}

/** Every v1 notification name with the interface of its params. */
export interface V1NotificationTypes {
  'run.event': RunEventNotification;
  'session.run': SessionRunNotification;
  /** Progress of a `context.build`, sent to the connection that asked for it. */
  'context.progress': ContextProgressParams;
  /** One step of a `login.start`, sent to the connection that started it. */
  'login.progress': LoginProgress;
}
