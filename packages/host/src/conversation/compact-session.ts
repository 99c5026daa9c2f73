import type { Model } from '@earendil-works/pi-ai';
import type { AgentSession, ModelRuntime } from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { connectionOf, modelErrorOf } from '../models/index.js';

/** What one compaction on request did (spec R73; the token counts are Pi's estimates, R47). */
export interface CompactionOutcome {
  /** The summary that now stands for the older part of the history. */
  summary: string;
  /** Pi's estimate of the context before, in tokens. */
  tokensBefore: number;
  /** Pi's estimate of the context after, in tokens. */
  tokensAfter?: number;
}

// Pi's own words when there is nothing to summarise.
const NOTHING = /^(Nothing to compact|Already compacted)/;

/**
 * Compacts the session's history through Pi's `compact()` with `instructions` (Pi's custom
 * instructions for the summary). Pi's refusal of a short or just compacted history is
 * `invalid_request`; a failed summary request has the model's error code.
 */
export async function compactSession(
  session: AgentSession,
  instructions: string | undefined,
  fallback: { model: Model<string>; modelRuntime: ModelRuntime },
): Promise<CompactionOutcome> {
  try {
    const result = await session.compact(instructions);
    return {
      summary: result.summary,
      tokensBefore: result.tokensBefore,
      ...(result.estimatedTokensAfter === undefined
        ? {}
        : { tokensAfter: result.estimatedTokensAfter }),
    };
  } catch (error) {
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
