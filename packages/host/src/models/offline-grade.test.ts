import { gradeRequestText } from '@repa/content';
import { describe, expect, it } from 'vitest';
import { gradeOffline } from './offline-grade.js';

const request = (asked: string, answer: string) =>
  gradeRequestText({
    quiz: 'q1',
    question: 'c1',
    cite: 'notes/cells.md:3',
    passage: 'ATP is the energy currency of the cell.',
    asked,
    answer,
  });

describe('the offline grader', () => {
  it("grades a cloze by its hidden word and a question by the passage's words it does not show", () => {
    const cloze = 'ATP is the energy _____ of the cell.';
    expect(gradeOffline(request(cloze, 'its Currency'))).toContain('Grade: Good\nMissing: nothing');
    expect(gradeOffline(request(cloze, 'money'))).toContain('Grade: Again\nMissing: "currency"');
    const question = 'What is ATP?';
    expect(gradeOffline(request(question, 'the energy currency'))).toContain(
      'Grade: Hard\nMissing: "cell"',
    );
    expect(gradeOffline(request(question, 'energy currency of a cell'))).toContain('Grade: Good');
    expect(gradeOffline('What is ATP?')).toBeUndefined();
  });
});
