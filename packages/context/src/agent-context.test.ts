// Spec R90: source switches, branches and repeated compaction, projected messages and their
// source entries, Pi context edits — on real Pi SessionManager instances.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { appendLearningContextSnapshot } from './append-learning-context-snapshot.js';
import { decideLearningContextSnapshot } from './decide-learning-context-snapshot.js';
import { renderLearningContext } from './learning-context-snapshot.js';
import { projectSessionContext } from './project-session-context.js';
import {
  assistant,
  compaction,
  countProjections,
  exchange,
  labels,
  snapshot,
  sources,
  user,
  view,
} from './test/session-builders.js';
import { withModelContext } from './with-model-context.js';

const ON = { learningContext: true };
const OFF = { learningContext: false };

function memory(): SessionManager {
  return SessionManager.inMemory('/tmp');
}

describe('projectSessionContext', () => {
  describe('source switches across runs', () => {
    it('drops snapshots while off and shows the same one again in place when back on', () => {
      const sm = memory();
      const proxyOptions = { ...ON };
      const proxy = withModelContext(sm, () => proxyOptions);

      // Run 1 (on): no snapshot yet → append one, then the exchange.
      expect(decideLearningContextSnapshot(proxy, view('1'), ON)).toMatchObject({
        append: true,
        reason: 'missing',
      });
      const s1 = appendLearningContextSnapshot(proxy, view('1'));
      exchange(sm, 'run 1');
      expect(labels(proxy.buildSessionProjection())).toEqual([
        'snapshot:r1',
        'user:run 1',
        'assistant:re: run 1',
      ]);

      // Run 2 (off): the snapshot leaves the working view, nothing is re-added.
      proxyOptions.learningContext = false;
      expect(decideLearningContextSnapshot(proxy, view('2'), OFF)).toEqual({
        append: false,
        reason: 'disabled',
        latest: null,
      });
      exchange(sm, 'run 2');
      const off = proxy.buildSessionProjection();
      expect(labels(off)).toEqual([
        'user:run 1',
        'assistant:re: run 1',
        'user:run 2',
        'assistant:re: run 2',
      ]);
      // The entry is still projected (paired, with no messages), like a Pi omission.
      expect(off.entries.find((e) => e.sourceEntry.id === s1)?.messages).toEqual([]);
      expect(proxy.buildSessionContext().messages).toEqual(off.messages);

      // Run 3 (on, same revision): the old snapshot is back where it was; no new one needed.
      proxyOptions.learningContext = true;
      expect(decideLearningContextSnapshot(proxy, view('1'), ON)).toEqual({
        append: false,
        reason: 'current',
        latest: { entryId: s1, revision: '1' },
      });
      expect(labels(proxy.buildSessionProjection())[0]).toBe('snapshot:r1');

      // Run 4 (on, the space's context changed): a new snapshot is due.
      expect(decideLearningContextSnapshot(proxy, view('2'), ON)).toMatchObject({
        append: true,
        reason: 'changed',
        latest: { entryId: s1, revision: '1' },
      });
      // The raw history never changed: the original instance shows everything.
      expect(labels(sm.buildSessionProjection())).toContain('snapshot:r1');
    });

    it('treats a body or sources change under the same revision as changed', () => {
      const sm = memory();
      snapshot(sm, '1');
      expect(decideLearningContextSnapshot(sm, view('1', 'other body'), ON).reason).toBe('changed');
      expect(
        decideLearningContextSnapshot(sm, { ...view('1'), sources: ['x.md'] }, ON).reason,
      ).toBe('changed');
      expect(decideLearningContextSnapshot(sm, null, ON)).toMatchObject({
        append: false,
        reason: 'no-context',
      });
    });
  });

  describe('branches', () => {
    it('sees only the snapshots of the current branch', () => {
      const sm = memory();
      const first = exchange(sm, 'before');
      const s1 = snapshot(sm, '1');
      exchange(sm, 'main');
      const mainLeaf = sm.getLeafId() as string;

      sm.branch(first);
      expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({ reason: 'missing' });
      const s2 = snapshot(sm, '2');
      exchange(sm, 'side');
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'user:before',
        'snapshot:r2',
        'user:side',
        'assistant:re: side',
      ]);
      expect(decideLearningContextSnapshot(sm, view('2'), ON).latest?.entryId).toBe(s2);

      sm.branch(mainLeaf);
      expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({
        reason: 'current',
        latest: { entryId: s1 },
      });
    });

    it('backfills from the compacted branch only', () => {
      const sm = memory();
      const root = exchange(sm, 'root');
      snapshot(sm, '1');
      exchange(sm, 'a');
      const kept = exchange(sm, 'b');
      compaction(sm, 'S-main', kept);
      // A side branch from the root has its own compaction and no snapshot before it.
      sm.branch(root);
      const sideKept = exchange(sm, 'side');
      compaction(sm, 'S-side', sideKept);
      expect(labels(projectSessionContext(sm, ON))).toEqual([
        'summary:S-side',
        'user:side',
        'assistant:re: side',
      ]);
    });
  });

  describe('repeated compaction', () => {
    it('places a snapshot that left the kept segment right after the summary', () => {
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      const kept = exchange(sm, 'two');
      compaction(sm, 'S1', kept);
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

  describe('projected messages and their source entries', () => {
    it('pairs every message with its raw entry and matches Pi elsewhere', () => {
      const sm = memory();
      const s1 = snapshot(sm, '1');
      const u1 = user(sm, 'one');
      const a1 = assistant(sm, 'reply one');
      const u2 = user(sm, 'two');
      const a2 = assistant(sm, 'reply two');
      const c1 = compaction(sm, 'S1', u2);
      const u3 = user(sm, 'three');
      expect([u1, a1].every((id) => sm.getEntry(id))).toBe(true);

      const projection = projectSessionContext(sm, ON);
      expect(sources(projection)).toEqual([
        [c1, ['summary:S1']],
        [s1, ['snapshot:r1']],
        [u2, ['user:two']],
        [a2, ['assistant:reply two']],
        [u3, ['user:three']],
      ]);
      expect(projection.messages).toEqual(projection.entries.flatMap((e) => e.messages));
      // Every projected message is the one Pi's projection gives for that entry.
      const pi = sm.buildSessionProjection();
      for (const entry of projection.entries) {
        const piEntry = pi.entries.find((e) => e.sourceEntry.id === entry.sourceEntry.id);
        if (piEntry) expect(entry.messages).toEqual(piEntry.messages);
      }
      // The backfilled message is exactly the snapshot entry's own content.
      const backfilled = projection.entries[1]?.messages[0];
      expect(backfilled).toMatchObject({
        role: 'custom',
        customType: 'repa.learning-context',
        content: renderLearningContext(view('1')),
      });
      expect(projection.thinkingLevel).toBe(pi.thinkingLevel);
      expect(projection.model).toEqual(pi.model);
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
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      sm.appendContextEdit(s1, { content: 'truncated…' });
      // Before compaction Pi shows the replacement; it is not complete background.
      expect(decideLearningContextSnapshot(sm, view('1'), ON)).toMatchObject({ reason: 'missing' });
      const kept = exchange(sm, 'two');
      compaction(sm, 'S1', kept);
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
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      sm.appendContextEdit(s1, null);
      const kept1 = exchange(sm, 'two');
      compaction(sm, 'S1', kept1);
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
      const sm = memory();
      const s1 = snapshot(sm, '1');
      exchange(sm, 'one');
      const kept = exchange(sm, 'two');
      compaction(sm, 'S1', kept);
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
      const sm = memory();
      snapshot(sm, '1');
      exchange(sm, 'one');
      compaction(sm, 'S1', exchange(sm, 'two'));
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
      const sm = memory();
      snapshot(sm, '1');
      const one = exchange(sm, 'one');
      compaction(sm, 'S1', exchange(sm, 'two'));
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

  describe('on disk', () => {
    it('projects a reopened session file the same way', () => {
      const dir = mkdtempSync(join(tmpdir(), 'repa-context-'));
      const sm = SessionManager.create(dir, join(dir, 'sessions'));
      snapshot(sm, '1');
      exchange(sm, 'one');
      const kept = exchange(sm, 'two');
      compaction(sm, 'S1', kept);
      const file = sm.getSessionFile() as string;
      const reopened = SessionManager.open(file);
      expect(labels(projectSessionContext(reopened, ON))).toEqual([
        'summary:S1',
        'snapshot:r1',
        'user:two',
        'assistant:re: two',
      ]);
    });
  });
});
