import { describe, expect, it } from 'vitest';
import { summaryParts } from './compaction-summary.js';

describe('summaryParts', () => {
  it('takes the file lists Pi appends for the model out of the summary people read', () => {
    const summary = [
      '## Goal',
      'Learn the tides.',
      '',
      '<read-files>',
      'notes/a.md',
      'reading/moon.pdf',
      '</read-files>',
      '',
      '<modified-files>',
      'notes/plan.md',
      '</modified-files>',
    ].join('\n');
    expect(summaryParts(summary)).toEqual({
      text: '## Goal\nLearn the tides.',
      read: ['notes/a.md', 'reading/moon.pdf'],
      changed: ['notes/plan.md'],
    });
  });

  it('leaves a summary with no file lists as it is', () => {
    expect(summaryParts('Plain summary.')).toEqual({
      text: 'Plain summary.',
      read: [],
      changed: [],
    });
  });
});
