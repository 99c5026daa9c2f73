import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens, SessionManager } from '@earendil-works/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { decideLearningContextSnapshot } from './decide-learning-context-snapshot.js';
import { projectSessionContext } from './project-session-context.js';
import {
  compaction,
  countProjections,
  exchange,
  labels,
  snapshot,
  system,
  user,
  view,
} from './test/session-builders.js';
import { withModelContext } from './with-model-context.js';

function onDisk(): { sm: SessionManager; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'repa-proxy-'));
  return { sm: SessionManager.create(dir, join(dir, 'sessions')), dir };
}

function compactedWithSnapshot(sm: SessionManager): void {
  snapshot(sm, '1');
  exchange(sm, 'one');
  const kept = exchange(sm, 'two');
  compaction(sm, 'S1', kept);
}

describe('withModelContext', () => {
  describe('what it overrides', () => {
    it('projects with Repa rules and derives buildSessionContext from that projection', () => {
      const sm = SessionManager.inMemory('/tmp');
      compactedWithSnapshot(sm);
      const proxy = withModelContext(sm, { learningContext: true });
      expect(labels(proxy.buildSessionProjection())).toEqual([
        'summary:S1',
        'snapshot:r1',
        'user:two',
        'assistant:re: two',
      ]);
      const { messages, thinkingLevel, model } = proxy.buildSessionProjection();
      expect(proxy.buildSessionContext()).toEqual({ messages, thinkingLevel, model });
      // The original instance still reads unaltered history.
      expect(labels(sm.buildSessionProjection())).not.toContain('snapshot:r1');
      expect(labels(sm.buildSessionContext())).not.toContain('snapshot:r1');
    });

    it('carries the system prompt actually sent in place of Pi’s own system messages', () => {
      const sm = SessionManager.inMemory('/tmp');
      const tool = { name: 'read', description: 'Reads.', parameters: {} };
      const piPrompt = { preamble: 'PI DEFAULT PROMPT', cwd: '<cwd>\n/tmp\n</cwd>' };
      const first = sm.appendMessage({
        role: 'system',
        content: '',
        sections: piPrompt,
        toolsAdded: [tool],
        timestamp: 1,
      } as never);
      exchange(sm, 'one');
      sm.appendMessage({
        role: 'system',
        content: '',
        sections: { cwd: '/x' },
        timestamp: 2,
      } as never);
      exchange(sm, 'two');
      const proxy = withModelContext(sm, { learningContext: true, systemPrompt: 'REPA PROMPT' });
      const projection = proxy.buildSessionProjection();
      const system = projection.messages.filter((message) => message.role === 'system');
      expect(system).toEqual([
        { role: 'system', content: 'REPA PROMPT', toolsAdded: [tool], timestamp: 1 },
      ]);
      // Paired with the raw entry of Pi's first system message; the later one projects nothing.
      expect(
        projection.entries.find((entry) => entry.messages.includes(system[0] as never))?.sourceEntry
          .id,
      ).toBe(first);
      expect(projection.messages.filter((message) => message.role !== 'system')).toEqual(
        sm.buildSessionProjection().messages.filter((message) => message.role !== 'system'),
      );
      // A system message that changes nothing in the raw session is not written; a real change is.
      const entries = sm.getEntries().length;
      proxy.appendMessage({
        role: 'system',
        content: '',
        sections: { cwd: '/x' },
        timestamp: 3,
      } as never);
      expect(sm.getEntries()).toHaveLength(entries);
      proxy.appendMessage({
        role: 'system',
        content: '',
        sections: { cwd: '/y' },
        timestamp: 4,
      } as never);
      expect(sm.getEntries()).toHaveLength(entries + 1);
    });

    it('skips a system message only when its tools, sections and text change nothing', () => {
      const sm = SessionManager.inMemory('/tmp');
      const read = { name: 'read', description: 'Reads.', parameters: { type: 'object' } };
      sm.appendMessage({
        role: 'system',
        content: '',
        sections: { preamble: 'P', cwd: '/x' },
        toolsAdded: [read],
        timestamp: 1,
      } as never);
      exchange(sm, 'one');
      const proxy = withModelContext(sm, { learningContext: true, systemPrompt: 'REPA PROMPT' });
      const written = (message: object) => {
        const before = sm.getEntries().length;
        proxy.appendMessage({ role: 'system', content: '', timestamp: 2, ...message } as never);
        return sm.getEntries().length - before;
      };
      // An equal declaration (another object), the same sections: nothing to write.
      expect(written({ toolsAdded: [structuredClone(read)], sections: { cwd: '/x' } })).toBe(0);
      expect(written({ sections: { missing: null } })).toBe(0);
      // Each real change is written.
      expect(written({ toolsAdded: [{ ...read, description: 'Reads files.' }] })).toBe(1);
      expect(written({ toolsRemoved: [{ name: 'read' }] })).toBe(1);
      expect(written({ sections: { preamble: null } })).toBe(1);
      expect(written({ sections: { extra: 'E' } })).toBe(1);
      expect(written({ content: 'More text.' })).toBe(1);
    });

    it('projects the raw session once for a run of system messages, not before each', () => {
      const sm = SessionManager.inMemory('/tmp');
      system(sm, { cwd: '/x' });
      const proxy = withModelContext(sm, { learningContext: true, systemPrompt: 'REPA PROMPT' });
      const pi = countProjections(sm);
      for (const turn of ['one', 'two', 'three']) {
        exchange(sm, turn);
        sm.appendCustomMessageEntry('note', `changed in ${turn}`, false);
        proxy.appendMessage({ role: 'system', content: '', sections: { cwd: '/x' } } as never);
      }
      expect(pi.count).toBe(1);
    });

    it('replays the raw session again after a system message, a branch move or a compaction', () => {
      const sm = SessionManager.inMemory('/tmp');
      system(sm, { cwd: '/x' });
      const first = exchange(sm, 'one');
      const proxy = withModelContext(sm, { learningContext: true, systemPrompt: 'REPA PROMPT' });
      const written = (sections: object) => {
        const before = sm.getEntries().length;
        proxy.appendMessage({ role: 'system', content: '', sections, timestamp: 2 } as never);
        return sm.getEntries().length - before;
      };
      expect(written({ cwd: '/x' })).toBe(0);
      // A system message written past the proxy (on the original) changes what "nothing" is.
      system(sm, { cwd: '/y' }, 3);
      expect(written({ cwd: '/y' })).toBe(0);
      expect(written({ cwd: '/x' })).toBe(1);
      // Back on the branch before both changes, /x is the state again.
      sm.branch(first);
      expect(written({ cwd: '/x' })).toBe(0);
      // After a compaction the raw session is projected again (what it keeps is Pi's rule).
      const pi = countProjections(sm);
      exchange(sm, 'two');
      expect(written({ cwd: '/x' })).toBe(0);
      expect(pi.count).toBe(0);
      compaction(sm, 'S1', exchange(sm, 'three'));
      pi.count = 0; // appendCompaction projects too
      expect(written({ cwd: '/x' })).toBe(0);
      expect(pi.count).toBe(1);
    });

    it('reads a getter on every projection, so runs can switch sources', () => {
      const sm = SessionManager.inMemory('/tmp');
      compactedWithSnapshot(sm);
      let learningContext = true;
      const proxy = withModelContext(sm, () => ({ learningContext }));
      expect(labels(proxy.buildSessionProjection())).toContain('snapshot:r1');
      learningContext = false;
      expect(labels(proxy.buildSessionProjection())).not.toContain('snapshot:r1');
    });

    it('counts the backfilled snapshot in Pi’s token estimate', () => {
      const sm = SessionManager.inMemory('/tmp');
      compactedWithSnapshot(sm);
      const proxy = withModelContext(sm, { learningContext: true });
      const total = (messages: readonly Parameters<typeof estimateTokens>[0][]) =>
        messages.reduce((sum, m) => sum + estimateTokens(m), 0);
      const backfilled = proxy.buildSessionProjection().entries[1]?.messages ?? [];
      expect(total(proxy.buildSessionProjection().messages)).toBe(
        total(sm.buildSessionProjection().messages) + total(backfilled),
      );
      expect(total(backfilled)).toBeGreaterThan(0);
    });

    it('is unwrapped by projectSessionContext and the snapshot decision', () => {
      const sm = SessionManager.inMemory('/tmp');
      compactedWithSnapshot(sm);
      const proxy = withModelContext(sm, { learningContext: false });
      // The proxy hides the snapshot, but the decision still sees the working view with it.
      expect(
        decideLearningContextSnapshot(proxy, view('1'), { learningContext: true }),
      ).toMatchObject({ reason: 'current' });
      expect(projectSessionContext(proxy, { learningContext: true })).toEqual(
        projectSessionContext(sm, { learningContext: true }),
      );
    });
  });

  describe('what it delegates', () => {
    it('sends reads, appends and branching to the original instance', () => {
      const sm = SessionManager.inMemory('/tmp');
      const proxy = withModelContext(sm, { learningContext: true });
      expect(proxy).toBeInstanceOf(SessionManager);
      const first = user(proxy, 'via proxy');
      expect(sm.getLeafId()).toBe(first);
      expect(proxy.getEntries()).toEqual(sm.getEntries());
      exchange(proxy, 'more');
      proxy.branch(first);
      expect(sm.getLeafId()).toBe(first);
      expect(proxy.getBranch()).toEqual(sm.getBranch());
      expect(proxy.getSessionId()).toBe(sm.getSessionId());
      expect(proxy.getTree()).toEqual(sm.getTree());
      proxy.resetLeaf();
      expect(sm.getLeafId()).toBeNull();
    });

    it('returns the same bound method each time', () => {
      const proxy = withModelContext(SessionManager.inMemory('/tmp'), { learningContext: true });
      expect(proxy.getEntries).toBe(proxy.getEntries);
    });
  });

  describe('the session file', () => {
    it('writes nothing extra: the file bytes are unchanged by projecting through the proxy', () => {
      const { sm, dir } = onDisk();
      compactedWithSnapshot(sm);
      const file = sm.getSessionFile() as string;
      const before = readFileSync(file);
      const proxy = withModelContext(sm, { learningContext: true });
      for (let i = 0; i < 3; i++) {
        proxy.buildSessionProjection();
        proxy.buildSessionContext();
        proxy.getBranch();
        proxy.getEntries();
        decideLearningContextSnapshot(proxy, view('1'), { learningContext: true });
      }
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(readdirSync(join(dir, 'sessions'))).toHaveLength(1);
    });

    it('appends through the proxy exactly what the original would append', () => {
      const { sm } = onDisk();
      compactedWithSnapshot(sm);
      const file = sm.getSessionFile() as string;
      const before = readFileSync(file, 'utf8');
      const proxy = withModelContext(sm, { learningContext: true });
      const id = user(proxy, 'appended through the proxy');
      const after = readFileSync(file, 'utf8');
      expect(after.startsWith(before)).toBe(true);
      const added = after.slice(before.length).trim().split('\n');
      expect(added).toHaveLength(1);
      expect(JSON.parse(added[0] as string)).toEqual(sm.getEntry(id));
      // The compaction's Pi system state comes from the raw projection, not Repa's.
      const reopened = SessionManager.open(file);
      expect(reopened.getEntries()).toEqual(sm.getEntries());
    });
  });
});
