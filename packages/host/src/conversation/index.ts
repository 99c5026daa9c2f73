export type { CompactionOutcome } from './compact-session.js';
export type { PiConversationHostOptions, ResumeTarget, SendOptions } from './host-options.js';
export { PiConversationHost } from './pi-conversation-host.js';
export type { DeliverOptions } from './pi-queues.js';
export type { RewindRequest } from './rewind-conversation.js';
export type { RunOutcome } from './run-outcome.js';
