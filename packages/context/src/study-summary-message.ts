import type { AgentMessage, CustomAgentMessage } from './pi-types.js';

/** The `customType` of Repa's study-progress summary (`custom_message` entries, spec R113). */
export const STUDY_SUMMARY_CUSTOM_TYPE = 'repa.study-summary';

/** True for a `custom` message of the study summary's type. */
export function isStudySummaryMessage(message: AgentMessage): message is CustomAgentMessage {
  return message.role === 'custom' && message.customType === STUDY_SUMMARY_CUSTOM_TYPE;
}
