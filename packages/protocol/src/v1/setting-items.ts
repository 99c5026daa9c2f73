import { z } from 'zod';
import { item, type SettingItem } from './setting-item.js';
import {
  bashModeSchema,
  bashTimeoutSecondsSchema,
  compactionInstructionsSchema,
  daemonIdleMinutesSchema,
  editsModeSchema,
  modelSettingsSchema,
  ocrLanguagesSchema,
  promptSettingsSchema,
  runsRetentionDaysSchema,
  studyModeSchema,
} from './settings.js';
import { STUDY_SETTING_ITEMS } from './study-setting-items.js';
import type { ModelSettings, PromptSettings } from './wire-types.generated.js';

const prompt = promptSettingsSchema.shape;

/**
 * The `prompts.*` items, one per field of `PromptSettings` (spec R13, R14).
 * Contract: the mapped type makes a `PromptSettings` field without an item a compile error.
 */
export const PROMPT_SETTING_ITEMS: {
  readonly [K in keyof PromptSettings]: SettingItem<PromptSettings[K]>;
} = {
  base: item({
    key: 'prompts.base',
    label: 'Base system prompt',
    requiresTrust: true,
    description:
      "The base system prompt. `null` (default) is Repa's built-in base prompt; a string replaces " +
      'it, and `""` is an explicitly empty base prompt. Setting `null` at a higher level brings ' +
      'the built-in base back over a lower level.',
    schema: prompt.base,
    defaultValue: null,
  }),
  append: item({
    key: 'prompts.append',
    label: 'Text added to the system prompt',
    requiresTrust: true,
    description: 'Text appended after everything else in the system prompt. Default `""`.',
    schema: prompt.append,
    defaultValue: '',
  }),
  projectInstructions: item({
    key: 'prompts.projectInstructions',
    label: 'Project instruction files',
    description:
      "Include the space's project instruction files (only when the host trusts them). Default off.",
    schema: prompt.projectInstructions,
    defaultValue: false,
  }),
  skillCatalog: item({
    key: 'prompts.skillCatalog',
    label: 'Skill catalog',
    description: 'Include the skill catalog in the system prompt. Default on.',
    schema: prompt.skillCatalog,
    defaultValue: true,
  }),
  environment: item({
    key: 'prompts.environment',
    label: 'Working environment',
    description: 'Describe the working environment (space root, platform, date). Default on.',
    schema: prompt.environment,
    defaultValue: true,
  }),
  learningContext: item({
    key: 'prompts.learningContext',
    label: 'Learning context',
    description: "Provide the space's learning context to the model. Default on.",
    schema: prompt.learningContext,
    defaultValue: true,
  }),
  fileChanges: item({
    key: 'prompts.fileChanges',
    label: 'Changed files told to the model',
    description:
      'How changes to ordinary files are told to the model: `off` never; `on-demand` (default) ' +
      'a short notice naming the changed files, the model re-reads a file when it needs the ' +
      'content; `notice` a notice with sizes and versions; `diff` a bounded unified diff when ' +
      'the old text is known.',
    schema: prompt.fileChanges,
    defaultValue: 'on-demand',
  }),
  citations: item({
    key: 'prompts.citations',
    label: 'Citations',
    requiresTrust: true,
    description:
      "Ask the model to support claims about the learner's documents with citations in Repa's " +
      'form (`[notes/tides.md:12-18 "quoted words"]`), which Repa checks against what the run ' +
      'read. Default on.',
    schema: prompt.citations.unwrap(),
    defaultValue: true,
  }),
  studySummary: item({
    key: 'prompts.studySummary',
    label: 'Study progress in the learning context',
    description:
      "With the learning context on, give the model a short summary of the learner's study " +
      'progress as Repa observed it in the study log: what is due, the weakest sources (lowest ' +
      'recall, most Again) and the sources never studied; only counts and paths, no model text. ' +
      'Sent again only when it changes. Default on.',
    schema: prompt.studySummary.unwrap(),
    defaultValue: true,
  }),
};

const model = modelSettingsSchema.shape;

/**
 * The model items, one per field of `ModelSettings` (spec R71, R72): applied at the run boundary,
 * recorded with the run at acceptance.
 */
export const MODEL_SETTING_ITEMS: {
  readonly [K in keyof ModelSettings]-?: SettingItem<Exclude<ModelSettings[K], undefined>>;
} = {
  model: item({
    key: 'model.id',
    label: 'Model',
    requiresTrust: true,
    description:
      'The model of a run as `provider/id` (see `repa models`). `null` (default) is the ' +
      "daemon's model: the one Pi itself would choose from its settings and credentials.",
    schema: model.model,
    defaultValue: null,
    values: 'null or provider/id',
  }),
  thinkingLevel: item({
    key: 'model.thinkingLevel',
    label: 'Thinking level',
    requiresTrust: true,
    description:
      "Pi's thinking level: off, minimal, low, medium, high or xhigh (clamped to what the model " +
      "supports). `null` (default) is Pi's own default level.",
    schema: model.thinkingLevel,
    defaultValue: null,
  }),
  tools: item({
    key: 'tools.enabled',
    label: 'Tools the model may use',
    requiresTrust: true,
    description:
      'The tool names a run may use, e.g. `["read", "grep"]`. `null` (default) is every content ' +
      'and search tool; `[]` is none.',
    schema: model.tools,
    defaultValue: null,
    values: 'null or a list of tool names',
  }),
  bash: item({
    key: 'tools.bash',
    label: 'Shell commands',
    requiresTrust: true,
    description:
      'Whether the model may run shell commands with the `bash` tool: `off` (default) never; ' +
      '`sandboxed` inside a bubblewrap sandbox (the space writable except `.repa`, the rest of ' +
      'the file system read-only, no network), refused with `sandbox_unavailable` when bubblewrap ' +
      'is missing, never run unsandboxed. `tools.enabled` can still leave it out.',
    schema: bashModeSchema,
    defaultValue: 'off',
  }),
  bashTimeoutSeconds: item({
    key: 'tools.bashTimeoutSeconds',
    label: 'Shell command time limit (seconds)',
    requiresTrust: true,
    description:
      'The wall-clock limit of one `bash` command in seconds (1 to 86400); a command that runs ' +
      'longer is terminated (SIGTERM, then SIGKILL). Default 120.',
    schema: bashTimeoutSecondsSchema,
    defaultValue: 120,
  }),
  edits: item({
    key: 'tools.edits',
    label: 'Changes to files',
    requiresTrust: true,
    description:
      'What the model may change without asking: `auto` (default) saves at once; `ask` pauses ' +
      'the run before each save (and each `bash` command) and shows the exact diff for the ' +
      'learner to approve or refuse; `off` is read-only (`write`, `edit` and `apply_patch` are ' +
      'not offered, and `bash` commands see the space read-only). Off a terminal, `ask` refuses ' +
      'the save with `edit_refused`.',
    schema: editsModeSchema,
    defaultValue: 'auto',
  }),
  studyMode: item({
    key: 'study.mode',
    label: 'Tutor mode',
    description:
      'How the agent helps: `answer` (default) answers; `tutor` asks a question back, gives a ' +
      "hint before an answer, checks the learner's reasoning against the passage and says which " +
      'passage to reread, with read-only tools (no `write`, `edit`, `apply_patch` or `bash`). ' +
      'It only narrows what runs, so an untrusted space may set it too.',
    schema: studyModeSchema,
    defaultValue: 'answer',
  }),
  ocrLanguages: item({
    key: 'documents.ocrLanguages',
    label: 'OCR languages',
    description:
      'The languages installed for OCR (Tesseract codes, e.g. `["eng", "deu"]`): a PDF page ' +
      'without a text layer, or an image read as text, is recognised in them on this machine. ' +
      'A language not installed is refused with `ocr_unavailable`, naming the Debian package ' +
      'to add (`tesseract-ocr-deu`); `[]` turns OCR off. Default `["eng"]`.',
    schema: ocrLanguagesSchema,
    defaultValue: ['eng'],
    values: 'a list of Tesseract language codes',
  }),
};

/**
 * Every settings item this protocol version knows, in the order `settings.get` reports them: the
 * prompt items, the model items, then `daemon.idleMinutes`, `compaction.instructions`,
 * `runs.retentionDays`, the `history.*` limits and the `study.*` scheduler options. A new item is one entry here (or in the group
 * above that its run field belongs to).
 */
export const SETTING_ITEMS: readonly SettingItem[] = Object.freeze([
  ...Object.values(PROMPT_SETTING_ITEMS),
  ...Object.values(MODEL_SETTING_ITEMS),
  item({
    key: 'daemon.idleMinutes',
    label: 'Daemon stops when idle (minutes)',
    description:
      'Minutes without requests, connections and active or queued runs after which the daemon ' +
      'exits by itself (the next repa command starts it again); 0 never. Read at the application ' +
      'level only. Default 30.',
    schema: daemonIdleMinutesSchema,
    defaultValue: 30,
    appliesAt: 'application',
  }),
  item({
    key: 'compaction.instructions',
    label: 'Compaction instructions',
    requiresTrust: true,
    description:
      "Standing instructions for the summary of every compaction of the session's history that " +
      "Repa starts (`repa sessions compact`, `/compact` in chat): Pi's custom instructions, e.g. " +
      '`Keep every open question and the sources named.` Instructions given with one compaction ' +
      "follow them. `null` (default): Pi's own summary prompt only. Pi's automatic compactions " +
      'take no instructions.',
    schema: compactionInstructionsSchema,
    defaultValue: null,
  }),
  item({
    key: 'runs.retentionDays',
    label: 'Keep ended runs (days)',
    description:
      'Days an ended run stays in the run ledger: older runs (and the stored images only they ' +
      'used) are pruned when the daemon starts and once a day; `repa runs prune` does it on ' +
      'request. Read at the application level only. 0 (default) keeps every run.',
    schema: runsRetentionDaysSchema,
    defaultValue: 0,
    appliesAt: 'application',
  }),
  item({
    key: 'history.maxMegabytes',
    label: 'Undo history size (MB)',
    description:
      "How many megabytes of replaced bytes a space keeps in `.repa/history/` so a run's saves " +
      'can be shown as diffs and rewound (`repa runs diff`, `repa runs rewind`); past it the ' +
      'oldest are evicted first, and a rewind that needs them says `history_evicted`. Read per ' +
      'space. Default 256.',
    schema: z.number().min(0).max(1_048_576),
    defaultValue: 256,
  }),
  item({
    key: 'history.maxDays',
    label: 'Undo history age (days)',
    description:
      'How many days a space keeps the bytes its saves replaced (and the record of each save) ' +
      'before they are evicted, oldest first. Read per space. Default 30.',
    schema: z.number().min(0).max(36_500),
    defaultValue: 30,
  }),
  ...STUDY_SETTING_ITEMS,
]);

/**
 * The names of Repa's own tools (content, search and `bash`): what `tools.enabled` names besides
 * the tools of loaded extensions, and names no extension may register.
 */
export const REPA_TOOL_NAMES: readonly string[] = Object.freeze([
  'read',
  'write',
  'edit',
  'apply_patch',
  'ls',
  'find',
  'grep',
  'bash',
]);

/** Every settings item key this protocol version knows. */
export const SETTING_KEYS: readonly string[] = SETTING_ITEMS.map((one) => one.key);

const ITEMS_BY_KEY = new Map<string, SettingItem>(SETTING_ITEMS.map((entry) => [entry.key, entry]));

/** A value typed as text: JSON when it parses as JSON, else the text itself. */
export function parseSettingValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A value typed as text, coerced to the item's type: read as JSON when that is a value of the type
 * (`true`, `12`, `null`, `["read"]`), else the text as it is when the item takes text, so
 * `prompts.append 12` is the string "12"; a value neither way stays as JSON read it, so its refusal
 * names what was typed (`1.5` is a fraction, not text). The CLI's `settings set` and the page both
 * type values this way.
 */
export function coerceSettingValue(key: string, text: string): unknown {
  const parsed = parseSettingValue(text);
  const known = ITEMS_BY_KEY.get(key);
  if (known === undefined || known.schema.safeParse(parsed).success) return parsed;
  return known.schema.safeParse(text).success ? text : parsed;
}
