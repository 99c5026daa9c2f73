import { xmlTag } from './xml-text.js';

/**
 * The `citations` section: how to cite the learner's documents so Repa can check each citation
 * against what the run read (the grammar is in the protocol's README).
 */
export function citationsSection(): string {
  return xmlTag(
    'citations',
    [
      "When a claim rests on the learner's documents, cite the passage right after the claim, in",
      'this form: [path:first-last "quoted words"], e.g. [notes/tides.md:12-18 "pulled by the Moon"].',
      'Use the path (or repa:document/<id> identity) and the line numbers the read tool showed you;',
      'one line is [notes/tides.md:12]; lines 3-9 of page (or chapter) 4 are [book.pdf#p4:3-9],',
      'line 1 being the first line after [Page 4 of N]; write a path with spaces as',
      '[<my notes/week 1.md>:2]. The quote is optional: when you give one, copy',
      'the words exactly from the cited lines. Cite only lines you have read in this conversation;',
      'Repa checks every citation against them and shows the learner which ones hold.',
    ].join(' '),
  );
}
