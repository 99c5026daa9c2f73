// The passage the study draft and quiz examples work on, and what their examples share about it.

/** The params a draft or a quiz run starts with, on the passage. */
export const tidesRunParams = {
  space: '/spaces/a',
  sessionId: 's1',
  requestId: 'q1',
  passage: 'notes/tides.md:3-9',
} as const;

/** The passage's line 3 as a card or question cites it, and its verified citation. */
export const tidesLine3 = {
  cite: 'notes/tides.md:3',
  citation: {
    index: 1,
    text: '[notes/tides.md:3]',
    offset: 40,
    document: 'notes/tides.md',
    startLine: 3,
    endLine: 3,
    status: 'verified',
  },
} as const;
