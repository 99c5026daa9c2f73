import { type Citation, RepaError } from '@repa/protocol';
import type { ContentStore } from '../store/index.js';
import { changedSince, citeOf, type DraftRun, quotes, unverified } from './drafted-cards.js';

/** The passage a tutor check grades against: a verified citation of the tutor's reply. */
export interface TutorPassage {
  /** The citation's number in the reply, from 1. */
  index: number;
  /** The citation in Repa form: `notes/x.md:12-14`, `book.pdf#p2:3`. */
  cite: string;
  citation: Citation;
  /** The cited document's space path (or identity), and the version the run read. */
  source: string;
  version: string;
  /** The cited lines of that version: what the answer is graded against. */
  quote: string;
}

/** The refusal of a reply that gives no passage to check against. */
const ASK_AGAIN =
  'Ask the tutor which passage to reread, then check your answer against its reply.';

/**
 * The passage a tutor check of `run`'s reply grades against (spec R114): the reply's citation
 * number `index`, else its first verified one; its cited lines read from the version the run read,
 * as drafted cards quote theirs. `invalid_request` when there is no such citation, when it is not
 * verified, or when the cited document changed since the run read it.
 */
export async function tutorPassage(
  store: ContentStore,
  run: DraftRun,
  index?: number,
): Promise<TutorPassage> {
  const citation =
    index === undefined
      ? run.citations.find((one) => one.status === 'verified')
      : run.citations.find((one) => one.index === index);
  if (citation === undefined) {
    throw new RepaError(
      'invalid_request',
      index === undefined
        ? `The tutor's reply (run ${run.runId}) cites no passage Repa verified (${run.citations.length} citation${run.citations.length === 1 ? '' : 's'}).`
        : `The tutor's reply (run ${run.runId}) has no citation ${index}.`,
      { fix: index === undefined ? ASK_AGAIN : 'Name a citation the reply numbers, or none.' },
    );
  }
  if (citation.status !== 'verified') {
    throw new RepaError(
      'invalid_request',
      `Citation ${citation.index} of the tutor's reply (run ${run.runId}) is not verified: ${unverified(citation).explanation}.`,
      { fix: ASK_AGAIN },
    );
  }
  const quote = await quotes(store)(citation);
  if (quote === undefined) {
    throw new RepaError(
      'invalid_request',
      `Citation ${citation.index} of the tutor's reply (run ${run.runId}): ${changedSince(citation)}.`,
      { fix: 'Ask the tutor again: it reads the passage as it is now; check your answer then.' },
    );
  }
  return {
    index: citation.index,
    cite: citeOf(citation),
    citation,
    source: citation.target ?? citation.document,
    version: citation.version ?? '',
    quote,
  };
}
