import type {
  SessionBeforeCompactEvent,
  SessionEntry,
  SessionManager,
  SessionProjection,
} from '@earendil-works/pi-coding-agent';

/** A message of Pi's model context (pi-agent-core's `AgentMessage`, reached through CA's types). */
export type AgentMessage = SessionProjection['messages'][number];

/** Pi's `custom` message role (`CustomMessage` is not exported from CA's index in 0.87.1). */
export type CustomAgentMessage = Extract<AgentMessage, { role: 'custom' }>;

/** Pi's `CompactionPreparation` (not exported from CA's index in 0.87.1). */
export type CompactionPreparation = SessionBeforeCompactEvent['preparation'];

/** The model-visible content of a custom message. */
export type CustomMessageContent = CustomAgentMessage['content'];

/** The read side of a session the projection needs; a `ReadonlySessionManager` satisfies it. */
export type ProjectionSource = Pick<
  SessionManager,
  'buildSessionProjection' | 'getEntry' | 'getLeafEntry'
>;

export type { SessionEntry };
