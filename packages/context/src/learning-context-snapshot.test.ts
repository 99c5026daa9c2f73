import { SessionManager } from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { appendLearningContextSnapshot } from './append-learning-context-snapshot.js';
import {
  inspectLearningContextSnapshot,
  LEARNING_CONTEXT_CUSTOM_TYPE,
  renderLearningContext,
  snapshotDetails,
} from './learning-context-snapshot.js';
import { projectSessionContext } from './project-session-context.js';
import { compaction, entry, exchange, labels, view } from './test/session-builders.js';

describe('appendLearningContextSnapshot', () => {
  describe('the entry', () => {
    it('is a custom_message with the rendered body and full details', () => {
      const sm = SessionManager.inMemory('/tmp');
      const id = appendLearningContextSnapshot(sm, view('4', 'The body.'));
      expect(sm.getEntry(id)).toMatchObject({
        type: 'custom_message',
        customType: LEARNING_CONTEXT_CUSTOM_TYPE,
        display: false,
        content: renderLearningContext(view('4', 'The body.')),
        details: { revision: '4', body: 'The body.', sources: ['notes/r4.md'], complete: true },
      });
      expect(renderLearningContext(view('4', 'The body.'))).toContain('The body.');
    });
  });
});

describe('inspectLearningContextSnapshot', () => {
  describe('completeness', () => {
    it('trusts a snapshot whose content still renders from its details', () => {
      const sm = SessionManager.inMemory('/tmp');
      const snapshot = entry(sm, appendLearningContextSnapshot(sm, view('1')));
      expect(inspectLearningContextSnapshot(snapshot)).toEqual({
        ...view('1'),
        complete: true,
      });
    });

    it('accepts the same text as content blocks', () => {
      const sm = SessionManager.inMemory('/tmp');
      const text = renderLearningContext(view('1'));
      const id = sm.appendCustomMessageEntry(
        LEARNING_CONTEXT_CUSTOM_TYPE,
        [
          { type: 'text', text: text.slice(0, 10) },
          { type: 'text', text: text.slice(10) },
        ],
        false,
        snapshotDetails(view('1')),
      );
      expect(inspectLearningContextSnapshot(entry(sm, id))?.complete).toBe(true);
    });

    it('does not trust truncated content, complete:false, or unreadable details', () => {
      const sm = SessionManager.inMemory('/tmp');
      const text = renderLearningContext(view('1'));
      const add = (content: string, details: unknown) =>
        inspectLearningContextSnapshot(
          entry(
            sm,
            sm.appendCustomMessageEntry(LEARNING_CONTEXT_CUSTOM_TYPE, content, false, details),
          ),
        );
      expect(add(text.slice(0, 20), snapshotDetails(view('1')))?.complete).toBe(false);
      expect(add(text, { ...snapshotDetails(view('1')), complete: false })?.complete).toBe(false);
      expect(add(text, { revision: 1 })).toEqual({
        revision: null,
        body: null,
        sources: [],
        complete: false,
      });
    });

    it('returns null for anything that is not a Repa snapshot', () => {
      const sm = SessionManager.inMemory('/tmp');
      const other = sm.appendCustomMessageEntry('other', 'x', false, snapshotDetails(view('1')));
      const message = exchange(sm, 'hi');
      expect(inspectLearningContextSnapshot(entry(sm, other))).toBeNull();
      expect(inspectLearningContextSnapshot(entry(sm, message))).toBeNull();
    });
  });

  describe('in the projection', () => {
    it('skips a truncated later snapshot and backfills the latest complete one', () => {
      const sm = SessionManager.inMemory('/tmp');
      appendLearningContextSnapshot(sm, view('1'));
      exchange(sm, 'one');
      sm.appendCustomMessageEntry(
        LEARNING_CONTEXT_CUSTOM_TYPE,
        'cut short',
        false,
        snapshotDetails(view('2')),
      );
      exchange(sm, 'two');
      const kept = exchange(sm, 'three');
      compaction(sm, 'S1', kept);
      expect(labels(projectSessionContext(sm, { learningContext: true })).slice(0, 2)).toEqual([
        'summary:S1',
        'snapshot:r1',
      ]);
    });
  });
});
