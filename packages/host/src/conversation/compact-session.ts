import type { Model } from '@earendil-works/pi-ai';
import {
  type AgentSession,
  estimateTokens,
  type ModelRuntime,
} from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { connectionOf, modelErrorOf } from '../models/index.js';

/** What one compaction on request did (spec R73; the token counts are estimates, R47). */
export interface CompactionOutcome {
  /** The summary that now stands for the older part of the history. */
  summary: string;
  /** Pi's estimate of what the model is sent, before (chars/4 of the projection), in tokens. */
  tokensBefore: number;
  /** The same estimate after, in tokens. */
  tokensAfter?: number;
  /** False when Pi summarised only the start of a turn, which it does without instructions. */
  instructionsApplied: boolean;
}

/** The part of Pi's compaction preparation that decides whether instructions reach the summary. */
interface PreparedCompaction {
  isSplitTurn: boolean;
  messagesToSummarize: readonly unknown[];
  turnPrefixMessages: readonly unknown[];
}

/**
 * What the session's `session_before_compact` hook saw last, after Repa's filter (R46): Pi
 * applies custom instructions to the summary of the history, never to the summary of a turn's
 * start, so a split turn with no history before it uses none.
 */
export class CompactionWatch {
  #prepared: PreparedCompaction | undefined;

  /** Records the preparation Pi is about to summarise. */
  prepared(preparation: PreparedCompaction): void {
    this.#prepared = preparation;
  }

  /** Whether the last compaction's summary was asked with the custom instructions; forgets it. */
  takeInstructionsApplied(): boolean {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    if (prepared === undefined) return true;
    const prefixOnly = prepared.isSplitTurn && prepared.turnPrefixMessages.length > 0;
    return !prefixOnly || prepared.messagesToSummarize.length > 0;
  }
}

// Pi's own words when there is nothing to summarise.
const NOTHING = /^(Nothing to compact|Already compacted)/;

/** Pi's estimate of what the model is sent now: chars/4 of every message of the projection. */
function projectedTokens(session: AgentSession): number {
  return session.sessionManager
    .buildSessionProjection()
    .messages.reduce((sum, message) => sum + estimateTokens(message), 0);
}

/**
 * Compacts the session's history through Pi's `compact()` with `instructions` (Pi's custom
 * instructions for the summary). Both token figures are Pi's chars/4 estimate of the projection,
 * before and after (Pi's own `tokensBefore` counts the last provider usage, another basis). Pi's
 * refusal of a short or just compacted history is `invalid_request`; a failed summary request
 * has the model's error code.
 */
export async function compactSession(
  session: AgentSession,
  instructions: string | undefined,
  fallback: { model: Model<string>; modelRuntime: ModelRuntime },
  watch: CompactionWatch,
): Promise<CompactionOutcome> {
  try {
    const tokensBefore = projectedTokens(session);
    const result = await session.compact(instructions);
    return {
      summary: result.summary,
      tokensBefore,
      tokensAfter: projectedTokens(session),
      instructionsApplied: watch.takeInstructionsApplied(),
    };
  } catch (error) {
    watch.takeInstructionsApplied();
    if (RepaError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (NOTHING.test(message)) {
      throw new RepaError('invalid_request', `${message}.`, {
        fix: 'Compact once the session holds more conversation since its last summary.',
      });
    }
    if (/cancelled/i.test(message)) {
      throw new RepaError('cancelled', 'The compaction was cancelled.');
    }
    const model = (session.model ?? fallback.model) as Model<string>;
    const connection = connectionOf(fallback.modelRuntime, model.provider);
    throw modelErrorOf(message.replace(/^Compaction failed: /, ''), model, connection);
  }
}
