import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { RunInfo } from '@repa/protocol';
import { jsonLines, repa, repaJson } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { useEndpointDaemon } from './commands-sandbox.js';

// One daemon on a model the test serves (an OpenAI-compatible endpoint in Pi's models.json), with
// Pi's retries quick (1 ms backoff) and its compaction keeping little, in Pi's settings.json.
const { sandbox, endpoint } = useEndpointDaemon([{ kind: 'text', text: 'Noted.' }], {
  piSettings: {
    retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 },
    compaction: { keepRecentTokens: 1 },
  },
});

/** The text of every message of a request the endpoint received, joined. */
function requestText(request: Record<string, unknown> | undefined): string {
  const messages = (request?.messages ?? []) as { content?: unknown }[];
  return messages
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
}

/** A new session of the sandbox's space. */
async function newSession(): Promise<string> {
  const created = await repaJson<{ session: { sessionId: string } }>(sandbox, ['sessions', 'new']);
  return created.json.session.sessionId;
}

/** `repa run --json` in a session: the finished run record. */
async function runIn(sessionId: string, text: string): Promise<RunInfo> {
  const result = await repa(sandbox, ['run', '--json', '--session', sessionId, text]);
  const finished = jsonLines(result.stdout).find((line) => line.kind === 'finished') as
    | { run: RunInfo }
    | undefined;
  if (!finished) throw new Error(`No finished line: ${result.stdout}\n${result.stderr}`);
  return finished.run;
}

describe('resuming a run on a real daemon', () => {
  it('is retried by Pi like a run: a 529, then the reply (two requests)', async () => {
    const sessionId = await newSession();
    endpoint().replies = [{ kind: 'status', status: 400, message: 'Unknown parameter: foo' }];
    const failed = await runIn(sessionId, 'Hello?');
    expect(failed.status).toBe('failed');
    endpoint().replies = [
      { kind: 'status', status: 529, message: 'Overloaded' },
      { kind: 'text', text: 'Back again.' },
    ];
    const before = endpoint().requests.length;
    const resumed = await repa(sandbox, ['runs', 'resume', failed.runId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^\[retry\] Pi retries the model call/m);
    expect(resumed.stdout).toContain('Back again.');
    expect(endpoint().requests.length - before).toBe(2);
  });
});

describe('a failed run', () => {
  it('shows each failed reply with its error in sessions show, a retried one on one line, and resumes as the latest run', async () => {
    const sessionId = await newSession();
    endpoint().replies = [
      { kind: 'status', status: 529, message: 'Overloaded' },
      { kind: 'status', status: 529, message: 'Overloaded' },
      { kind: 'status', status: 529, message: 'Still overloaded' },
    ];
    const failed = await runIn(sessionId, 'Are you there?');
    expect(failed.status).toBe('failed');
    const shown = await repa(sandbox, ['sessions', 'show', sessionId]);
    const failures = shown.stdout.split('\n').filter((line) => line.includes('(failed'));
    expect(failures, shown.stdout).toHaveLength(3);
    for (const line of failures.slice(0, 2)) {
      expect(line).toMatch(
        /^\[assistant \(failed, retried\)\] \S+ {2}The model call failed: .*Overloaded/,
      );
    }
    expect(shown.stdout).toMatch(
      /\[assistant \(failed\)\] \S+\nThe model call failed: .*Still overloaded/,
    );

    endpoint().replies = [{ kind: 'text', text: 'Here now.' }];
    const resumed = await repa(sandbox, ['runs', 'resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `repa: the most recent run in ${sandbox.space}: ${failed.runId}`,
    );
    expect(resumed.stdout).toMatch(new RegExp(`resumes ${failed.runId} \\(attempt 2\\)`));
    expect(resumed.stdout).toContain('Here now.');
  });
});

describe('compacting a session on a real daemon', () => {
  it('asks for the summary with the given instructions; the next run still gets the learning context', async () => {
    const sessionId = await newSession();
    const set = await repa(sandbox, ['context', 'set', '--body', 'Tides follow the moon.']);
    expect(set.code, set.stderr).toBe(0);
    endpoint().replies = [{ kind: 'text', text: 'Noted.' }];
    await runIn(sessionId, 'First question about tides.');
    await runIn(sessionId, 'Second question about tides.');
    endpoint().replies = [{ kind: 'text', text: 'SUMMARY: two tide questions.' }];
    const before = endpoint().requests.length;
    const compacted = await repa(sandbox, [
      'sessions',
      'compact',
      sessionId,
      '--instructions',
      'Keep the open questions.',
    ]);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect(compacted.stdout).toContain('SUMMARY: two tide questions.');
    const summaryRequests = endpoint().requests.slice(before).map(requestText).join('\n');
    expect(summaryRequests).toContain('Keep the open questions.');
    expect(summaryRequests).toContain('Second question about tides.');
    endpoint().replies = [{ kind: 'text', text: 'Third.' }];
    await runIn(sessionId, 'Third question.');
    const last = requestText(endpoint().requests.at(-1));
    const summaryAt = last.indexOf('SUMMARY: two tide questions.');
    expect(summaryAt).toBeGreaterThanOrEqual(0);
    expect(last.indexOf('Tides follow the moon.')).toBeGreaterThan(summaryAt);
  });
});

describe('the space a command works in', () => {
  it('is the enclosing space for a run typed in a subfolder, as git finds its repository', async () => {
    await newSession();
    const result = await repa(sandbox, ['run', 'Hello from a subfolder.'], {
      cwd: join(sandbox.space, 'notes'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`[repa] space ${sandbox.space}\n`);
    expect(existsSync(join(sandbox.space, 'notes', '.repa'))).toBe(false);
  });
});

describe("a space's data over time", () => {
  it('stores an image sent with two runs once, by its hash, outside the ledger', async () => {
    const sessionId = await newSession();
    // A 1×1 PNG outside the space: sent inline.
    const png = join(sandbox.root, 'dot.png');
    writeFileSync(
      png,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    endpoint().replies = [{ kind: 'text', text: 'A dot.' }];
    for (const text of ['What is this?', 'And now?']) {
      const result = await repa(sandbox, ['run', '--session', sessionId, '--image', png, text]);
      expect(result.code, result.stderr).toBe(0);
    }
    expect(readdirSync(join(sandbox.appDir, 'images'))).toHaveLength(1);
    const ledger = new DatabaseSync(join(sandbox.appDir, 'ledger.sqlite'), { readOnly: true });
    const inputs = ledger.prepare('SELECT input FROM runs WHERE session_id = ?').all(sessionId);
    ledger.close();
    expect(inputs).toHaveLength(2);
    expect(JSON.stringify(inputs)).not.toContain('iVBORw0KGgo');
  });
});
