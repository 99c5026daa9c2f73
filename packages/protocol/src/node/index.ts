// `@repa/protocol/node`: what only Node can run. The socket transport (`node:net`) and the daemon's
// files and process helpers live here, apart from the main entry, so that a page bundling
// `@repa/protocol` never pulls in a Node built-in (as the MCP SDK keeps its stdio transport apart).

export {
  type DaemonPaths,
  daemonPaths,
  type ResolveAppDirectoryOptions,
  resolveAppDirectory,
} from '../daemon/app-directory.js';
export {
  type DaemonFailure,
  type DaemonReady,
  formatDaemonFailure,
  formatDaemonReady,
  parseDaemonFailure,
  parseDaemonReady,
} from '../daemon/daemon-output.js';
export { isProcessAlive, readPidFile } from '../daemon/daemon-pid.js';
export { keepingWebState } from '../daemon/web-state.js';
export { type OpenWebAppOptions, openWebApp } from './open-web-app.js';
export {
  createRepaClient,
  type RepaClientTarget,
  type SocketTransportOptions,
  socketTransport,
} from './socket-transport.js';
