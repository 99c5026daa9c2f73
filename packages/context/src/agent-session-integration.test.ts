// The package's pieces inside a real Pi 0.87.1 AgentSession on the faux provider (no mocks).
import type { TranscriptContext } from '@earendil-works/pi-ai';
import {
  convertToLlm,
  type ExtensionFactory,
  estimateTokens,
  SessionManager,
} from '@earendil-works/pi-coding-agent';
import type { FileChangeReport, FileChangesMode } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import { appendLearningContextSnapshot } from './append-learning-context-snapshot.js';
import { decideLearningContextSnapshot } from './decide-learning-context-snapshot.js';
import { buildFileChangeMessage } from './file-change-message.js';
import { filterCompactionPreparation } from './filter-compaction-preparation.js';
import { injectFileChangeMessage } from './inject-file-change-message.js';
import { renderLearningContext } from './learning-context-snapshot.js';
import type { AgentMessage } from './pi-types.js';
import { createFauxSession } from './test/faux-session.js';
import { view } from './test/session-builders.js';
import { withModelContext } from './with-model-context.js';

const SNAPSHOT_TEXT = renderLearningContext(view('1'));
const PAD = 'x'.repeat(400);
const sha = (c: string) => c.repeat(64);
/** `notes/a.md` changed on disk since the model last saw it, told as a notice. */
const A_MODIFIED = {
  target: 'notes/a.md',
  kind: 'modified',
  previousVersion: sha('a'),
  version: sha('b'),
  form: 'notice',
} as const;

/** The text of every provider message, in order, with its role. */
function texts(context: TranscriptContext): string[] {
  return context.messages.map((m) => {
    if (m.role === 'system') return 'system';
    const content = typeof m.content === 'string' ? m.content : m.content;
    const text =
      typeof content === 'string'
        ? content
        : content.map((b) => ('text' in b ? b.text : `[${b.type}]`)).join('');
    return `${m.role}:${text}`;
  });
}

function tokens(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m), 0);
}

/** Two runs (snapshot first), then a manual compaction keeping only the second run. */
async function twoRunsThenCompact(sessionManager: SessionManager, raw: SessionManager) {
  const faux = await createFauxSession({ sessionManager, keepRecentTokens: 50 });
  appendLearningContextSnapshot(raw, view('1'));
  faux.reply('reply one', 'reply two', 'SUMMARY');
  await faux.session.prompt(`first ${PAD}`);
  await faux.session.prompt(`second ${PAD}`);
  await faux.session.compact();
  return faux;
}

describe('withModelContext', () => {
  describe('in a real AgentSession', () => {
    it('feeds the backfilled snapshot to the provider after a compaction', async () => {
      const sm = SessionManager.inMemory('/tmp');
      const proxy = withModelContext(sm, { learningContext: true });
      const faux = await twoRunsThenCompact(proxy, sm);
      expect(texts(faux.requests[2] as TranscriptContext)).toEqual([
        'system',
        expect.stringContaining('<conversation>'),
      ]);
      // Run 3: the snapshot is still current in the working view, so none is appended.
      expect(
        decideLearningContextSnapshot(proxy, view('1'), { learningContext: true }),
      ).toMatchObject({ append: false, reason: 'current' });
      let projectedTokens = -1;
      let rawTokens = -1;
      faux.reply(() => {
        // Pi's estimate over the projection at the moment the provider is called.
        projectedTokens = tokens(convertToLlm(proxy.buildSessionProjection().messages));
        rawTokens = tokens(convertToLlm(sm.buildSessionProjection().messages));
        return 'reply three';
      });
      await faux.session.prompt('third');
      const request = texts(faux.requests[3] as TranscriptContext);
      const summary = request.findIndex((t) => t.includes('<summary>\nSUMMARY'));
      expect(summary).toBeGreaterThan(0);
      expect(request.slice(summary + 1)).toEqual([
        `user:${SNAPSHOT_TEXT}`,
        `user:second ${PAD}`,
        'assistant:reply two',
        'user:third',
      ]);
      // Pi's estimate over the proxy projection equals the estimate over what the provider got,
      // and includes the backfilled snapshot.
      expect(tokens(faux.requests[3]?.messages as AgentMessage[])).toBe(projectedTokens);
      expect(projectedTokens).toBe(rawTokens + Math.ceil(SNAPSHOT_TEXT.length / 4));
      // Nothing was written for the backfill: one snapshot entry in the raw session.
      expect(sm.getEntries().filter((e) => e.type === 'custom_message')).toHaveLength(1);
      faux.dispose();
    });

    it('is what makes the difference: Pi alone drops the snapshot after that compaction', async () => {
      const sm = SessionManager.inMemory('/tmp');
      const faux = await twoRunsThenCompact(sm, sm);
      faux.reply('reply three');
      await faux.session.prompt('third');
      expect(texts(faux.requests[3] as TranscriptContext)).not.toContain(`user:${SNAPSHOT_TEXT}`);
      faux.dispose();
    });

    it('counts the backfilled snapshot in the estimate Pi reports after compacting', async () => {
      const withProxy = SessionManager.inMemory('/tmp');
      const a = await createFauxSession({
        sessionManager: withModelContext(withProxy, { learningContext: true }),
        keepRecentTokens: 50,
      });
      const plain = SessionManager.inMemory('/tmp');
      const b = await createFauxSession({ sessionManager: plain, keepRecentTokens: 50 });
      const results = [];
      for (const [faux, raw] of [
        [a, withProxy],
        [b, plain],
      ] as const) {
        appendLearningContextSnapshot(raw, view('1'));
        faux.reply('reply one', 'reply two', 'SUMMARY');
        await faux.session.prompt(`first ${PAD}`);
        await faux.session.prompt(`second ${PAD}`);
        results.push(await faux.session.compact());
        faux.dispose();
      }
      const snapshotTokens = Math.ceil(SNAPSHOT_TEXT.length / 4);
      expect(results[0]?.estimatedTokensAfter).toBe(
        (results[1]?.estimatedTokensAfter ?? 0) + snapshotTokens,
      );
    });

    it('hides the snapshot from the provider in a run with learningContext off', async () => {
      const sm = SessionManager.inMemory('/tmp');
      let learningContext = true;
      const proxy = withModelContext(sm, () => ({ learningContext }));
      const faux = await createFauxSession({ sessionManager: proxy });
      appendLearningContextSnapshot(proxy, view('1'));
      faux.reply('one', 'two', 'three');
      await faux.session.prompt('run one');
      learningContext = false;
      await faux.session.prompt('run two');
      learningContext = true;
      await faux.session.prompt('run three');
      const has = (i: number) =>
        texts(faux.requests[i] as TranscriptContext).includes(`user:${SNAPSHOT_TEXT}`);
      expect([has(0), has(1), has(2)]).toEqual([true, false, true]);
      faux.dispose();
    });
  });
});

describe('filterCompactionPreparation', () => {
  describe('in session_before_compact', () => {
    async function summaryRequest(settings: {
      learningContext: boolean;
      fileChanges: FileChangesMode;
    }): Promise<string> {
      const sm = SessionManager.inMemory('/tmp');
      const extension: ExtensionFactory = (pi) => {
        pi.on('session_before_compact', (event) => {
          filterCompactionPreparation(event.preparation, settings);
        });
      };
      const faux = await createFauxSession({ sessionManager: sm, extension, keepRecentTokens: 50 });
      appendLearningContextSnapshot(sm, view('1'));
      faux.reply('reply one', 'reply two', 'SUMMARY');
      await faux.session.prompt(`first ${PAD}`);
      const notice = buildFileChangeMessage(
        {
          changes: [A_MODIFIED],
        },
        'on-demand',
      );
      if (notice) injectFileChangeMessage(sm, [], notice);
      await faux.session.prompt(`second ${PAD}`);
      await faux.session.compact();
      faux.dispose();
      return JSON.stringify(faux.requests[2]?.messages);
    }

    it('makes Pi summarise without the disabled snapshot and notices', async () => {
      const text = await summaryRequest({ learningContext: false, fileChanges: 'off' });
      expect(text).toContain('first xxx');
      expect(text).toContain('reply one');
      expect(text).not.toContain('Body of revision 1.');
      expect(text).not.toContain('notes/a.md');
    });

    it('leaves enabled sources in what Pi summarises', async () => {
      const text = await summaryRequest({ learningContext: true, fileChanges: 'on-demand' });
      expect(text).toContain('Body of revision 1.');
      expect(text).toContain('notes/a.md');
    });
  });
});

describe('injectFileChangeMessage', () => {
  describe('in the context handler', () => {
    const report: FileChangeReport = {
      changes: [{ ...A_MODIFIED, bytes: 12 }],
    };

    async function run(push: boolean) {
      const sm = SessionManager.inMemory('/tmp');
      const proxy = withModelContext(sm, { learningContext: true });
      let pending: FileChangeReport | null = report;
      const extension: ExtensionFactory = (pi) => {
        pi.on('context', (event) => {
          const message = pending && buildFileChangeMessage(pending, 'notice');
          pending = null;
          if (!message) return;
          if (push) injectFileChangeMessage(proxy, event.messages, message);
          else
            proxy.appendCustomMessageEntry(
              message.customType,
              message.content,
              true,
              message.details,
            );
        });
      };
      const faux = await createFauxSession({ sessionManager: proxy, extension });
      faux.reply('one', 'two');
      await faux.session.prompt('run one');
      await faux.session.prompt('run two');
      faux.dispose();
      const count = (i: number) =>
        texts(faux.requests[i] as TranscriptContext).filter((t) => t.includes('notes/a.md')).length;
      return { sm, faux, counts: [count(0), count(1)] };
    }

    it('reaches the request in flight once and stays in history once', async () => {
      const { sm, faux, counts } = await run(true);
      expect(counts).toEqual([1, 1]);
      const first = texts(faux.requests[0] as TranscriptContext);
      expect(first.at(-1)).toContain('notes/a.md');
      expect(first.at(-2)).toBe('user:run one');
      expect(sm.getEntries().filter((e) => e.type === 'custom_message')).toHaveLength(1);
    });

    it('is needed: an append alone misses the request in flight (Pi 0.87.1)', async () => {
      const { counts } = await run(false);
      expect(counts).toEqual([0, 1]);
    });
  });
});
