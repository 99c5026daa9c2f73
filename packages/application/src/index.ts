export type {
  ConnectionContext,
  RepaHandledMethod,
  RepaHandler,
  RepaHandlers,
  V1NotificationParams,
} from './server/repa-handlers.js';
export {
  type RepaServer,
  type RepaServerOptions,
  startRepaServer,
} from './server/start-repa-server.js';
