import type { Model, ModelThinkingLevel } from '@earendil-works/pi-ai';
import type {
  ExtensionError,
  InlineExtension,
  ModelRuntime,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import type { LearningContextView } from '@repa/context';
import type {
  ModelSettings,
  ModelSettingsSources,
  PromptSettingsSources,
  RestrictedItem,
  RunAttachment,
  RunEvent,
  RunImage,
} from '@repa/protocol';

/** Options of {@link PiConversationHost.open}. */
export interface PiConversationHostOptions {
  /** The space root (absolute). */
  space: string;
  /** An existing Pi session file to continue; omitted: a new session in `sessionDir`. */
  sessionFile?: string;
  /** Where new session files go; default `<space>/.repa/sessions`. */
  sessionDir?: string;
  /** Repa's application directory (outside-material grants). */
  appDirectory: string;
  /** Pi's own configuration directory (models, auth, Pi settings). */
  agentDir: string;
  /** Pi's model runtime: discovery, auth and every model call (spec R71). */
  modelRuntime: ModelRuntime;
  /** The model this session talks to. */
  model: Model<string>;
  /** Pi thinking level; default `off`. */
  thinkingLevel?: ModelThinkingLevel;
  /** Pi's own settings (compaction, retry); default: Pi's settings files for this space. */
  piSettings?: SettingsManager;
  /** Trusted inline Pi extensions; Repa's own extension is installed after them (spec R34). */
  extensions?: InlineExtension[];
  /**
   * Whether the learner trusts the space (spec R13). Untrusted (the default), nothing of the
   * space's own Pi configuration is read or run: its `.pi/` settings, skills, prompt templates and
   * packages, `.agents/` skills and instruction files; Pi's project trust follows this.
   */
  trusted?: boolean;
  /** Receives errors thrown by extension handlers (Pi isolates them; default: ignored). */
  onExtensionError?: (error: ExtensionError) => void;
  /** The date shown in the environment section; default: the clock at run start. */
  now?: () => Date;
  /**
   * Test hooks handed as-is to the session's content store (`ContentStore.open({ hooks })`):
   * `step` runs after each named save step and may pause it.
   * @internal
   */
  contentHooks?: {
    step?(step: string, info: { operationId: string; index?: number }): void | Promise<void>;
  };
  /**
   * Test hooks for the sandboxed `bash` tool: the process limit of one command (default 256) and
   * the grace period between SIGTERM and SIGKILL (default 2000 ms).
   * @internal
   */
  bashLimits?: { maxProcesses?: number; graceMillis?: number };
  /**
   * Test seam: reads the space's learning context at run start instead of `readLearningContext`
   * (a test holds the read with it).
   * @internal
   */
  learningContextReader?: (space: string) => Promise<LearningContextView | null>;
}

/** Options of one {@link PiConversationHost.send}. */
export interface SendOptions {
  /** Receives the run's events as they happen. */
  onEvent?: (event: RunEvent) => void;
  /** The run's id; the run's saves get the operation ids `<runId>-<n>` (so recovery can name the run). */
  runId?: string;
  /** The level each of the run's settings came from; the prompt report names it (spec R10). */
  sources?: PromptSettingsSources;
  /**
   * In an untrusted space, the digests ({@link learningContextDigest}) of the learning contexts
   * Repa wrote there: any other learning context the space holds is not given to the model.
   */
  knownContexts?: readonly string[];
  /** What the space's restriction leaves out, as the application found it; told with the prompt. */
  restricted?: readonly RestrictedItem[];
  /**
   * The run's model, thinking level and tools, applied before the run starts (spec R72).
   * Omitted: the host's model, its initial thinking level and every content tool.
   */
  modelSettings?: ModelSettings;
  /** The level (or `run`) each model setting came from; the prompt report names `study.mode`'s. */
  modelSources?: ModelSettingsSources;
  /**
   * The connection recorded when the run was accepted (`provider:credential source`): named in
   * the `auth_failed` of a run whose credentials were removed or expired since.
   */
  connection?: string;
  /** Images sent with the request: given to the model as image content parts. */
  images?: readonly RunImage[];
  /** Documents of the space attached to the request: read at run start and sent with it. */
  attachments?: readonly RunAttachment[];
}

/** The run a {@link PiConversationHost.resume} resumes. */
export interface ResumeTarget {
  /** The original run's id (its mark in the history says whether its message entered it). */
  runId: string;
  /** Its request text, sent again when its message never entered the history. */
  text: string;
  /** Whether it ran on a host that marks its message; an older run is continued as before. */
  marked: boolean;
}
