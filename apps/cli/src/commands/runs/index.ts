import type { Command } from '../../command.js';
import { runsFollow, runsResume, runsRetry } from './attempt-commands.js';
import { runsPrune } from './prune-command.js';
import { runsDiff, runsRewind } from './rewind-commands.js';
import { runCommand } from './run-command.js';
import { runsCancel, runsList, runsShow } from './runs-commands.js';

export { rewindLines } from './describe-rewind.js';
export {
  announceModel,
  announceSession,
  CONTINUE_OPTION,
  NEW_OPTION,
  restrictedOf,
} from './run-command.js';

/** `repa run` and `repa runs …`. */
export const runCommands: Command[] = [
  runCommand,
  runsList,
  runsShow,
  runsCancel,
  runsRetry,
  runsResume,
  runsFollow,
  runsPrune,
  runsDiff,
  runsRewind,
];
