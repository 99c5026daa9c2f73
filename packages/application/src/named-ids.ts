import { RepaError } from '@repa/protocol';

/** What a learner types for the most recent session or run of a space. */
export const LATEST = 'latest';

/** How many candidates an ambiguous prefix names. */
const SHOWN = 5;

/**
 * The one of `candidates` that `typed` names: the one whose id it is, else the only one whose id
 * starts with it. None: `missing()`; several: `invalid_request` naming the first few (newest first
 * as given) in `details.candidates`.
 */
export function uniqueByPrefix<T>(
  kind: 'run' | 'session',
  typed: string,
  candidates: readonly T[],
  idOf: (candidate: T) => string,
  missing: () => RepaError,
): T {
  const exact = candidates.find((candidate) => idOf(candidate) === typed);
  if (exact !== undefined) return exact;
  const matches = candidates.filter((candidate) => idOf(candidate).startsWith(typed));
  if (matches.length === 1) return matches[0] as T;
  if (matches.length === 0) throw missing();
  const shown = matches.slice(0, SHOWN).map(idOf);
  throw new RepaError(
    'invalid_request',
    `'${typed}' matches ${matches.length} ${kind}s: ${shown.join(', ')}${matches.length > SHOWN ? ', …' : ''}.`,
    {
      fix: `Type more of the ${kind} id.`,
      details: { [kind]: typed, candidates: shown, matches: matches.length },
    },
  );
}
