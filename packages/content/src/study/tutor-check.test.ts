import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { passageRun } from '../test/passage-run.js';
import { tempSpaces } from '../test/temp-space.js';
import { gradeRequestText, parseGradeRequest } from './quiz-request.js';
import { tutorPassage } from './tutor-check.js';

const space = tempSpaces();

const CELLS = '# Cells\n\nATP is the energy currency of the cell.\nRibosomes build proteins.\n';

/** A tutor run that read notes/cells.md and answered `reply`: its citations checked. */
async function tutorRun(reply: string) {
  const root = await space({ 'notes/cells.md': CELLS });
  const { store, run } = await passageRun(root, {
    passage: 'notes/cells.md',
    request: 'What is ATP?',
    answer: reply,
    runId: 't1',
  });
  return { root, store, run };
}

describe('tutorPassage', () => {
  it("takes the reply's first verified citation (or the one named) with the cited lines of the version read", async () => {
    const reply =
      'Think again: [notes/cells.md:4 "Ribosomes make"] and [notes/cells.md:3 "ATP is the"].';
    const { store, run } = await tutorRun(reply);
    expect(run.citations.map((one) => one.status)).toEqual(['quote_not_found', 'verified']);
    expect(await tutorPassage(store, run)).toMatchObject({
      index: 2,
      cite: 'notes/cells.md:3',
      source: 'notes/cells.md',
      version: run.citations[1]?.version,
      quote: 'ATP is the energy currency of the cell.',
    });
    const forged = await repaErrorOf(tutorPassage(store, run, 1));
    expect(forged.message).toMatch(/^Citation 1 of the tutor's reply \(run t1\) is not verified/u);
    expect(forged.fix).toBe(
      'Ask the tutor which passage to reread, then check your answer against its reply.',
    );
    expect((await repaErrorOf(tutorPassage(store, run, 3))).message).toContain('has no citation 3');
  });

  it('refuses a reply with no verified citation, and a passage whose document changed since', async () => {
    const forged = await tutorRun('Reread [notes/cells.md:3 "ATP is glucose"].');
    const none = await repaErrorOf(tutorPassage(forged.store, forged.run));
    expect(none.code).toBe('invalid_request');
    expect(none.message).toBe(
      "The tutor's reply (run t1) cites no passage Repa verified (1 citation).",
    );
    const { root, store, run } = await tutorRun('Reread [notes/cells.md:3 "ATP is the"].');
    await writeFile(join(root, 'notes/cells.md'), CELLS.replace('energy', 'power'));
    const changed = await repaErrorOf(tutorPassage(store, run));
    expect(changed.message).toBe(
      "Citation 1 of the tutor's reply (run t1): notes/cells.md changed since the run read it.",
    );
  });
});

describe('a tutor check’s grade request', () => {
  it('reads back the tutor run, the citation, the first try and the answer as written', () => {
    const grade = {
      tutor: 't1',
      citation: 2,
      after: 'g1',
      cite: 'notes/cells.md:3',
      passage: 'ATP is the energy currency of the cell.',
      asked: 'What is ATP? See `notes/cells.md`',
      answer: 'energy money\nAnswer: "not this"',
    };
    const text = gradeRequestText(grade);
    expect(text.split('\n', 1)[0]).toBe(
      "Grade the answer to the tutor's question of run `t1`, against its citation 2, a second try after `g1`.",
    );
    expect(parseGradeRequest(text)).toEqual(grade);
  });
});
