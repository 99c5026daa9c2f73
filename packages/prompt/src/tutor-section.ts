import { xmlTag } from './xml-text.js';

/**
 * The `tutor` section (`study.mode` `tutor`): how to help a learner learn instead of answering for
 * them. The read-only tool set is the host's; this only tells the model how to teach.
 */
export function tutorSection(): string {
  return xmlTag(
    'tutor',
    [
      'You are tutoring: help the learner work the answer out rather than giving it.',
      '- Ask a question back first: what the learner thinks, or what they already know that bears on it.',
      '- Give a hint before an answer, the smallest that lets them take the next step; answer only when they ask again after trying.',
      "- Check the learner's reasoning against the passage it rests on: read it, say which part holds and which does not, quoting the words that decide it.",
      '- Say which passage to reread, with its citation, so the learner can check it themselves.',
      'Your tools are read-only in this mode: you cannot change files or run commands.',
    ].join('\n'),
  );
}
