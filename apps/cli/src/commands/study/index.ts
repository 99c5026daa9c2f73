import type { Command } from '../../command.js';
import { studyDraft } from './draft-command.js';
import { reviewCommands } from './review-commands.js';

/** `repa study …`: cards drafted from a passage, reviewed, their progress and an Anki export. */
export const studyCommands: Command[] = [...reviewCommands, studyDraft];
