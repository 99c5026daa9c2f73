import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type PromptSettings, RepaError } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { RunLedger } from './run-ledger.js';
import { QUEUE_LIMIT, type RunRequest } from './run-request.js';

const promptSettings: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };
const settings = { promptSettings, settingsRevisions: { application: 1, space: 0, session: 0 } };

function ledgerPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'repa-ledger-')), 'ledger.sqlite');
}

const request = (overrides: Partial<RunRequest> = {}): RunRequest => ({
  requestId: 'q1',
  space: '/s',
  sessionId: 's1',
  input: { type: 'text', text: 'hello' },
  ...overrides,
});

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
    expect.unreachable(`expected ${code}`);
  } catch (error) {
    expect(RepaError.isInstance(error) && error.code).toBe(code);
  }
}

describe('RunLedger', () => {
  describe('accept', () => {
    it('stores the run with its settings snapshot, durable across reopening', () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const { run, resubmitted } = ledger.accept(request(), settings);
      expect(resubmitted).toBe(false);
      expect(run).toMatchObject({
        status: 'accepted',
        attempt: 1,
        promptSettings,
        settingsRevisions: settings.settingsRevisions,
      });
      ledger.close();
      expect(new RunLedger(path).getRun(run.runId)).toEqual(run);
    });

    it('stores the source level of each prompt setting with the run (R10, R20)', () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const settingsSources = {
        base: 'default',
        append: 'space',
        projectInstructions: 'default',
        skillCatalog: 'application',
        environment: 'default',
        learningContext: 'session',
        fileChanges: 'default',
      } as const;
      const { run } = ledger.accept(request(), { ...settings, settingsSources });
      expect(run.settingsSources).toEqual(settingsSources);
      ledger.close();
      expect(new RunLedger(path).getRun(run.runId).settingsSources).toEqual(settingsSources);
    });

    it('opens a ledger written before sources were kept and adds them to new runs', () => {
      const path = ledgerPath();
      const old = new DatabaseSync(path);
      old.exec(`CREATE TABLE runs (run_id TEXT PRIMARY KEY, request_id TEXT NOT NULL UNIQUE,
        space TEXT NOT NULL, session_id TEXT NOT NULL, input TEXT NOT NULL, status TEXT NOT NULL,
        attempt INTEGER NOT NULL, retry_of TEXT, target_run_id TEXT, prompt_settings TEXT NOT NULL,
        settings_revisions TEXT NOT NULL, prompt_sections TEXT, error TEXT, output TEXT,
        accepted_at TEXT NOT NULL, started_at TEXT, ended_at TEXT)`);
      old
        .prepare(
          `INSERT INTO runs (run_id, request_id, space, session_id, input, status, attempt,
             prompt_settings, settings_revisions, accepted_at)
           VALUES ('old', 'q0', '/s', 's0', ?, 'succeeded', 1, ?, ?, '2026-01-01T00:00:00.000Z')`,
        )
        .run(
          JSON.stringify({ type: 'text', text: 'old' }),
          JSON.stringify(promptSettings),
          JSON.stringify(settings.settingsRevisions),
        );
      old.close();
      const ledger = new RunLedger(path);
      expect(ledger.getRun('old').settingsSources).toBeUndefined();
      const { run } = ledger.accept(request(), {
        ...settings,
        settingsSources: { append: 'space' },
      });
      expect(ledger.getRun(run.runId).settingsSources).toEqual({ append: 'space' });
      ledger.close();
    });

    it('returns the original run for the same request id without new settings', () => {
      const ledger = new RunLedger(ledgerPath());
      const first = ledger.accept(request(), settings);
      const changed = { ...settings, promptSettings: { ...promptSettings, append: 'new' } };
      const again = ledger.accept(request(), changed);
      expect(again).toEqual({ run: first.run, resubmitted: true });
      expect(ledger.lookup(request())?.run.promptSettings.append).toBe('');
    });

    it('refuses the same request id with a different payload', () => {
      const ledger = new RunLedger(ledgerPath());
      ledger.accept(request(), settings);
      expectCode(
        () => ledger.accept(request({ input: { type: 'text', text: 'other' } }), settings),
        'idempotency_mismatch',
      );
    });

    it('answers busy while the session has an active run, but not for another session', () => {
      const ledger = new RunLedger(ledgerPath());
      const { run } = ledger.accept(request(), settings);
      expectCode(() => ledger.accept(request({ requestId: 'q2' }), settings), 'busy');
      expect(
        ledger.accept(request({ requestId: 'q3', sessionId: 's2' }), settings).resubmitted,
      ).toBe(false);
      ledger.markRunning(run.runId);
      ledger.finish(run.runId, { status: 'succeeded', output: 'done' });
      expect(ledger.accept(request({ requestId: 'q2' }), settings).run.status).toBe('accepted');
    });

    it('links a retry to the original with the next attempt number', () => {
      const ledger = new RunLedger(ledgerPath());
      const { run } = ledger.accept(request(), settings);
      ledger.finish(run.runId, {
        status: 'failed',
        error: { code: 'internal', message: 'm', fix: 'f' },
      });
      const retry = ledger.accept(request({ requestId: 'q2', retryOf: run.runId }), settings).run;
      expect(retry).toMatchObject({ attempt: 2, retryOf: run.runId });
    });
  });

  describe('lifecycle', () => {
    it('keeps the provider usage of a finished run across reopening', () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const { run } = ledger.accept(request(), settings);
      ledger.markRunning(run.runId);
      const usage = {
        input: 10,
        output: 2,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 12,
        calls: 1,
      };
      expect(ledger.finish(run.runId, { status: 'succeeded', usage }).usage).toEqual(usage);
      ledger.close();
      expect(new RunLedger(path).getRun(run.runId).usage).toEqual(usage);
    });

    it('moves accepted → running → succeeded and never changes an ended run', () => {
      const ledger = new RunLedger(ledgerPath());
      const { run } = ledger.accept(request(), settings);
      expect(ledger.markRunning(run.runId).startedAt).toBeDefined();
      const done = ledger.finish(run.runId, { status: 'succeeded', output: 'hi' });
      expect(done).toMatchObject({ status: 'succeeded', output: 'hi' });
      expect(ledger.finish(run.runId, { status: 'cancelled' }).status).toBe('succeeded');
    });

    it('interrupts accepted and running runs after a crash', () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const a = ledger.accept(request(), settings).run;
      ledger.markRunning(a.runId);
      const b = ledger.accept(request({ requestId: 'q2', sessionId: 's2' }), settings).run;
      ledger.close();
      const reopened = new RunLedger(path);
      const reason = { code: 'internal', message: 'daemon restarted', fix: 'retry' };
      expect(
        reopened
          .interruptActive(reason)
          .map((run) => run.runId)
          .sort(),
      ).toEqual([a.runId, b.runId].sort());
      expect(reopened.getRun(a.runId)).toMatchObject({ status: 'interrupted', error: reason });
      expect(reopened.lookup(request())?.run.runId).toBe(a.runId);
    });

    it('lists runs newest first with filters', () => {
      const ledger = new RunLedger(ledgerPath());
      const a = ledger.accept(request(), settings).run;
      ledger.finish(a.runId, { status: 'succeeded' });
      const b = ledger.accept(request({ requestId: 'q2' }), settings).run;
      expect(ledger.listRuns({ sessionId: 's1' }).map((run) => run.runId)).toEqual([
        b.runId,
        a.runId,
      ]);
      expect(ledger.listRuns({ status: 'succeeded' }).map((run) => run.runId)).toEqual([a.runId]);
      expectCode(() => ledger.getRun('nope'), 'not_found');
    });
  });

  describe('queue (R24)', () => {
    it('keeps queued runs with their position; a restart interrupts only the active run; queue_full past the limit', () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const first = ledger.accept(request({ requestId: 'a', delivery: 'queue' }), settings).run;
      ledger.markRunning(first.runId);
      const second = ledger.accept(request({ requestId: 'b', delivery: 'queue' }), settings).run;
      const third = ledger.accept(request({ requestId: 'c', delivery: 'queue' }), settings).run;
      expect([second.queuePosition, third.queuePosition]).toEqual([1, 2]);
      expectCode(() => ledger.accept(request({ requestId: 'd' }), settings), 'busy');
      ledger.close();

      const reopened = new RunLedger(path);
      expect(reopened.activeRuns().map((run) => run.runId)).toEqual([first.runId]);
      expect(reopened.nextQueued('/s', 's1')?.runId).toBe(second.runId);
      reopened.finish(second.runId, { status: 'cancelled' });
      expect(reopened.getRun(third.runId).queuePosition).toBe(1);
      for (let index = 1; index < QUEUE_LIMIT; index += 1) {
        reopened.accept(request({ requestId: `fill-${index}`, delivery: 'queue' }), settings);
      }
      expectCode(
        () => reopened.accept(request({ requestId: 'over', delivery: 'queue' }), settings),
        'queue_full',
      );
    });

    it('keeps inline image bytes once, in a file by their hash, never in the ledger', async () => {
      const path = ledgerPath();
      const ledger = new RunLedger(path);
      const data = Buffer.from('0123456789').toString('base64');
      const input = {
        type: 'text' as const,
        text: 'look',
        images: [{ kind: 'data' as const, data, mimeType: 'image/png' as const }],
      };
      for (const requestId of ['q1', 'q2']) {
        const release = await ledger.images.store(input.images);
        ledger.accept(request({ requestId, sessionId: requestId, input }), settings);
        release();
      }
      const [second, first] = ledger.listRuns();
      expect(first?.input).toEqual({
        type: 'text',
        text: 'look',
        images: [{ kind: 'data', mimeType: 'image/png', bytes: 10 }],
      });
      expect(ledger.inputOf(second?.runId ?? '')).toEqual(input);
      expect(readdirSync(ledger.images.directory)).toHaveLength(1);
      ledger.close();
      // Neither the runs nor the requests hold the bytes.
      const db = new DatabaseSync(path);
      const rows = db
        .prepare('SELECT input FROM runs UNION ALL SELECT payload FROM requests')
        .all();
      expect(JSON.stringify(rows)).not.toContain(data);
      db.close();
    });
  });

  describe('retention', () => {
    /** A ledger with one ended run per session of `sessions`, ended `daysAgo` days ago. */
    async function ledgerWithRuns() {
      const ledger = new RunLedger(ledgerPath());
      const data = Buffer.from('an image').toString('base64');
      const images = [{ kind: 'data' as const, data, mimeType: 'image/png' as const }];
      const accept = async (requestId: string, sessionId: string, extra = {}) => {
        const input = { type: 'text' as const, text: requestId, images };
        const release = await ledger.images.store(images);
        const { run } = ledger.accept(request({ requestId, sessionId, input, ...extra }), settings);
        release();
        ledger.finish(run.runId, { status: 'failed' });
        return run;
      };
      return { ledger, accept };
    }

    it('hides a session being deleted from listings, across reopening, then removes its runs', async () => {
      const { ledger, accept } = await ledgerWithRuns();
      const gone = await accept('a', 'doomed');
      const kept = await accept('b', 'kept');
      ledger.beginSessionDelete('/s', 'doomed');
      expect(ledger.listRuns().map((run) => run.runId)).toEqual([kept.runId]);
      // A crash here: the mark survives, so the runs stay out of listings until it is finished.
      const path = join(dirname(ledger.images.directory), 'ledger.sqlite');
      ledger.close();
      const reopened = new RunLedger(path);
      expect(reopened.listRuns().map((run) => run.runId)).toEqual([kept.runId]);
      expect(reopened.deletingSessions()).toEqual([{ space: '/s', sessionId: 'doomed' }]);
      expect(reopened.removeSession('/s', 'doomed')).toBe(1);
      expect(reopened.deletingSessions()).toEqual([]);
      expectCode(() => reopened.getRun(gone.runId), 'not_found');
      // The image is still used by the kept run.
      expect(reopened.sweepImages()).toBe(0);
      expect(reopened.removeSession('/s', 'kept')).toBe(1);
      expect(reopened.sweepImages()).toBe(1);
      expect(readdirSync(reopened.images.directory)).toEqual([]);
    });

    it('prunes runs that ended before the cutoff, but not one a kept run refers to', async () => {
      const { ledger, accept } = await ledgerWithRuns();
      const old = await accept('old', 's1');
      const retried = await accept('retried', 's2');
      const cutoff = new Date(Date.now() + 1000).toISOString();
      expect(ledger.prune(new Date(0).toISOString())).toEqual({ runs: 0, images: 0 });
      const retry = ledger.accept(
        request({ requestId: 'retry', sessionId: 's2', retryOf: retried.runId }),
        settings,
      ).run;
      expect(ledger.prune(cutoff)).toEqual({ runs: 1, images: 0 });
      expectCode(() => ledger.getRun(old.runId), 'not_found');
      expect(ledger.getRun(retried.runId).runId).toBe(retried.runId);
      ledger.finish(retry.runId, { status: 'succeeded' });
      expect(ledger.prune(new Date(Date.now() + 2000).toISOString())).toEqual({
        runs: 2,
        images: 1,
      });
    });
  });
});
