export {
  PiConversationHost,
  type PiConversationHostOptions,
  type RunOutcome,
  type SendOptions,
} from './pi-conversation-host.js';
export {
  checkSessionFile,
  createSessionFile,
  listSessionFiles,
  openSessionFile,
  type SessionFileCheck,
} from './session-files.js';
