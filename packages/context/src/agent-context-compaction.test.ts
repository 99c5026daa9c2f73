import { describe, expect, it } from 'vitest';
import { decideLearningContextSnapshot } from './decide-learning-context-snapshot.js';
import { projectSessionContext } from './project-session-context.js';
import { memory, OFF, ON } from './test/memory-session.js';
import {
  compactedPastSnapshot,
  compaction,
  countProjections,
  exchange,
  labels,
  snapshot,
  view,
} from './test/session-builders.js';

describe('projectSessionContext', () => {
  describe('repeated compaction', () => {
    it('places a snapshot that left the kept segment right after the summary', () => {
      const { sm, snapshotId: s1 } = compactedPastSnapshot();
      expect(labels(sm.buildSessionProjection())).toEqual([
        'summary:S1',
        'user:two',
        'assistant:re: two',
      ]);
      const projection = projectSessionContext(sm, ON);
      expect(labels(projection)).toEqual([
        'summary:S1',
        'snapshot:r1',
        'user:two',
        'assistant:re: two',
      ]);
      expect(projection.entries[1]?.sourceEntry.id).toBe(s1);
      expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({
        append: false,
        reason: 'current',
      });
    });

    it('leaves a snapshot still in the kept segment where it is', () => {
      const sm = memory();
      exchange(sm, 'one');
      const s1 = snapshot(sm, '1');
      exchange(sm, 'two');
      compaction(sm, 'S1', s1);
      const projection = projectSessionContext(sm, ON);
      expect(labels(projection)).toEqual([
        'summary:S1',
        'snapshot:r1',
        'user:two',
        'assistant:re: two',
      ]);
      expect(projection).toEqual(sm.buildSessionProjection());
    });

    it('keeps the snapshot after the newest summary over two and three compactions', () => {
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      const k1 = exchange(sm, 'two');
      compaction(sm, 'S1', k1);
      exchange(sm, 'three');
      const k2 = exchange(sm, 'four');
      compaction(sm, 'S2', k2);
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'summary:S2',
        'snapshot:r1',
        'user:four',
        'assistant:re: four',
      ]);

      // A new snapshot between the second and the third compaction supersedes the first.
      const s2 = snapshot(sm, '2');
      exchange(sm, 'five');
      const k3 = exchange(sm, 'six');
      compaction(sm, 'S3', k3);
      exchange(sm, 'seven');
      const projection = projectSessionContext(sm, ON);
      expect(labels(projection)).toEqual([
        'summary:S3',
        'snapshot:r2',
        'user:six',
        'assistant:re: six',
        'user:seven',
        'assistant:re: seven',
      ]);
      expect(projection.entries[1]?.sourceEntry.id).toBe(s2);
      expect(projection.entries.some((e) => e.sourceEntry.id === s1)).toBe(false);
      expect(decideLearningContextSnapshot(sm, view('2'), ON).latest?.entryId).toBe(s2);
    });

    it('backfills after the summary even when the compaction carries Pi system state', () => {
      const sm = memory();
      sm.appendMessage({
        role: 'system',
        content: '',
        sections: { preamble: 'You are helpful.' },
        timestamp: Date.now(),
      });
      snapshot(sm, '1');
      exchange(sm, 'one');
      const kept = exchange(sm, 'two');
      compaction(sm, 'S1', kept);
      const roles = projectSessionContext(sm, ON).messages.map((m) => m.role);
      expect(roles).toEqual(['system', 'compactionSummary', 'custom', 'user', 'assistant']);
    });

    it('adds nothing while learningContext is off, and drops a kept snapshot', () => {
      const sm = memory();
      snapshot(sm, '1');
      exchange(sm, 'one');
      const s2 = snapshot(sm, '2');
      exchange(sm, 'two');
      compaction(sm, 'S1', s2);
      expect(labels(projectSessionContext(sm, OFF))).toEqual([
        'summary:S1',
        'user:two',
        'assistant:re: two',
      ]);
    });
  });

  describe('Pi context edits', () => {
    it('does not resurrect a snapshot a context_edit omitted', () => {
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      sm.appendContextEdit(s1, null);
      const kept = exchange(sm, 'two');
      expect(labels(projectSessionContext(sm, ON))).not.toContain('snapshot:r1');
      compaction(sm, 'S1', kept);
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'summary:S1',
        'user:two',
        'assistant:re: two',
      ]);
      expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({
        append: true,
        reason: 'missing',
      });
    });

    it('does not resurrect a replaced snapshot, nor trust it on its old details', () => {
      const { sm } = compactedPastSnapshot((sm, s1) => {
        sm.appendContextEdit(s1, { content: 'truncated…' });
        // Before compaction Pi shows the replacement; it is not complete background.
        expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({
          reason: 'missing',
        });
      });
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'summary:S1',
        'user:two',
        'assistant:re: two',
      ]);
    });

    it('does not fall back to an older snapshot when the latest one was edited away', () => {
      const sm = memory();
      snapshot(sm, '1');
      exchange(sm, 'one');
      const s2 = snapshot(sm, '2');
      exchange(sm, 'two');
      sm.appendContextEdit(s2, null);
      const kept = exchange(sm, 'three');
      compaction(sm, 'S1', kept);
      expect(labels(projectSessionContext(sm, ON))).not.toContain('snapshot:r1');
    });

    it('does not resurrect a snapshot edited before an older compaction', () => {
      const { sm } = compactedPastSnapshot((sm, s1) => sm.appendContextEdit(s1, null));
      exchange(sm, 'three');
      const kept2 = exchange(sm, 'four');
      compaction(sm, 'S2', kept2);
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'summary:S2',
        'user:four',
        'assistant:re: four',
      ]);
    });

    it('removes a backfilled snapshot once a later edit omits it', () => {
      const { sm, snapshotId: s1 } = compactedPastSnapshot();
      expect(labels(projectSessionContext(sm, ON))).toContain('snapshot:r1');
      sm.appendContextEdit(s1, null);
      expect(labels(projectSessionContext(sm, ON))).not.toContain('snapshot:r1');
    });

    it('keeps an edited snapshot in the kept segment as Pi projects it', () => {
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      sm.appendContextEdit(s1, { content: 'short' });
      compaction(sm, 'S1', s1);
      const projection = projectSessionContext(sm, ON);
      expect(projection).toEqual(sm.buildSessionProjection());
      expect(projection.entries.find((e) => e.sourceEntry.id === s1)?.messages[0]).toMatchObject({
        content: 'short',
      });
    });
  });

  describe('repeated projections', () => {
    it('projects a branch once for the same leaf and options, and returns lists the caller owns', () => {
      const { sm } = compactedPastSnapshot();
      const pi = countProjections(sm);
      const first = projectSessionContext(sm, { ...ON, systemPrompt: 'P' });
      const second = projectSessionContext(sm, { ...ON, systemPrompt: 'P' });
      expect(pi.count).toBe(1);
      expect(second).toEqual(first);
      // Pi adds to a request's messages: that must not reach the next projection.
      first.messages.push(first.messages[0] as never);
      first.entries.pop();
      expect(projectSessionContext(sm, { ...ON, systemPrompt: 'P' })).toEqual(second);
      expect(pi.count).toBe(1);
    });

    it('projects again after an append or a branch move; other options reuse Pi’s projection', () => {
      const { sm, one } = compactedPastSnapshot();
      const pi = countProjections(sm);
      const fresh = (options: { learningContext: boolean; systemPrompt?: string } = ON) => {
        // The same options through a new object still hit.
        const before = pi.count;
        const projection = projectSessionContext(sm, { ...options });
        return { projected: pi.count - before, labels: labels(projection) };
      };
      expect(fresh().projected).toBe(1);
      expect(fresh().projected).toBe(0);
      exchange(sm, 'three');
      expect(fresh()).toMatchObject({
        projected: 1,
        labels: expect.arrayContaining(['snapshot:r1', 'user:three']),
      });
      const off = fresh(OFF);
      expect(off).toMatchObject({ projected: 0, labels: expect.arrayContaining(['user:three']) });
      expect(off.labels).not.toContain('snapshot:r1');
      expect(fresh()).toMatchObject({
        projected: 0,
        labels: expect.arrayContaining(['snapshot:r1']),
      });
      sm.branch(one);
      expect(fresh()).toEqual({ projected: 1, labels: ['snapshot:r1', 'user:one'] });
      expect(fresh(OFF)).toEqual({ projected: 0, labels: ['user:one'] });
    });
  });
});
