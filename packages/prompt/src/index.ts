/** Assemble a run's system prompt with named sections and a per-section report (R13, R34, R35). */
export { type AssembledSystemPrompt, assembleSystemPrompt } from './assemble-system-prompt.js';
/** The input of `assembleSystemPrompt` and its parts, all supplied by the caller. */
export type {
  AssembleSystemPromptInput,
  PromptEnvironment,
  PromptInstructionFile,
  PromptMaterial,
  PromptProjectInstructions,
  PromptSkill,
  PromptStudyMode,
  PromptTool,
} from './assemble-system-prompt-input.js';
/** Repa's built-in base prompt for learning and knowledge work (used when `prompts.base` is null). */
export { DEFAULT_BASE_PROMPT } from './default-base-prompt.js';
