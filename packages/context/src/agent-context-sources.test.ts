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
import { memory, OFF, ON } from './test/memory-session.js';
import {
  assistant,
  compaction,
  exchange,
  labels,
  snapshot,
  sources,
  user,
  view,
} from './test/session-builders.js';
import { withModelContext } from './with-model-context.js';

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
