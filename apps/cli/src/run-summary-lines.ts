import type { PromptSectionReport, RunInfo } from '@repa/protocol';

/** A run's usage in one line: the provider's figures, and Pi's context estimate labelled as one. */
export function describeUsage(usage: NonNullable<RunInfo['usage']>): string {
  const cache =
    usage.cacheRead + usage.cacheWrite > 0
      ? `, cache ${usage.cacheRead} read / ${usage.cacheWrite} written`
      : '';
  const cost = usage.cost === undefined ? '' : `, cost $${usage.cost.toFixed(4)}`;
  const context =
    usage.contextTokensEstimate === undefined
      ? ''
      : `; context about ${usage.contextTokensEstimate}${usage.contextWindow ? ` of ${usage.contextWindow}` : ''} tokens (Pi's estimate)`;
  return `${usage.input} in, ${usage.output} out, ${usage.totalTokens} total tokens${cache}${cost} over ${usage.calls} call${usage.calls === 1 ? '' : 's'} (provider's figures)${context}`;
}

/** What a run's prompt report means when project instructions were withheld for want of trust. */
export const UNTRUSTED_HINT =
  'project instruction files were withheld: this space is not trusted. Trust it with: repa trust (in the space, or --space DIR)';

/** Whether a prompt section is the project instructions, withheld because the space is not trusted. */
export function withheldUntrusted(section: PromptSectionReport): boolean {
  return (
    section.name === 'projectInstructions' &&
    !section.included &&
    section.reason.startsWith('not trusted')
  );
}

/** The prompt sections in one line: what the model saw, and why the others are absent. */
export function summarizePromptSections(sections: readonly PromptSectionReport[]): string {
  const seen = sections
    .filter((section) => section.included)
    .map((section) => `${section.name} (${section.chars} chars)`);
  const absent = sections
    .filter((section) => !section.included)
    .map((section) => `${section.name}: ${section.reason}`);
  return `the model saw ${seen.join(', ') || 'no sections'}${absent.length > 0 ? `; absent: ${absent.join('; ')}` : ''}`;
}
