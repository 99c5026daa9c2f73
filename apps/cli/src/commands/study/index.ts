import type { Command } from '../../command.js';
import { studyDraft } from './draft-command.js';

/** `repa study …`: drafting cards from a passage. */
export const studyCommands: Command[] = [studyDraft];
