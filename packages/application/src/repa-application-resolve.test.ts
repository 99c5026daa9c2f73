import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpaceSession } from '@repa/host';
import { RepaError } from '@repa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepaApplication } from './repa-application.js';
import { ended, listener, request } from './test/run-listener.js';
import { openTestApplication } from './test/test-application.js';

// The one rule of which session or run a learner names (`latest`, an id or its first characters),
// answered by the daemon for every client: through the application's gated handlers.

let base: string;
let app: RepaApplication;
/** Holds each run at its start while `hold` is set (the learning context is read first). */
let hold: Promise<null> | undefined;
beforeAll(async () => {
  ({ app, base } = await openTestApplication({
    learningContextReader: () => hold ?? Promise.resolve(null),
  }));
});
afterAll(() => app.close());

function folder(name: string): string {
  const path = join(base, name);
  mkdirSync(path);
  return path;
}

/** The error a call is refused with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (RepaError.isInstance(error) ? error : undefined),
  );

/** Runs `text` in the session to its end; the run's id. */
async function runTo(space: string, sessionId: string, requestId: string): Promise<string> {
  const { connection, events, next } = listener();
  const { run } = await app.submit(
    { space, sessionId, requestId, input: { type: 'text', text: 'hi' } },
    connection,
  );
  await ended(app, run.runId, events, next);
  return run.runId;
}

/** The longest start two ids share. */
function sharedStart(one: string, other: string): string {
  let length = 0;
  while (one[length] !== undefined && one[length] === other[length]) length += 1;
  return one.slice(0, length);
}

describe('which session a learner names (session.resolve)', () => {
  it('latest: not_found in a space without sessions, else the most recently changed one', async () => {
    const space = folder('latest-session');
    const none = await refusal(request(app, 'session.resolve', { space, session: 'latest' }));
    expect(none).toMatchObject({ code: 'not_found', message: `Space ${space} has no sessions.` });
    expect(none?.fix).toContain('repa chat');
    const older = (await request(app, 'session.create', { space })).session.sessionId;
    const newer = (await request(app, 'session.create', { space })).session.sessionId;
    const latest = async () =>
      (await request(app, 'session.resolve', { space, session: 'latest' })).session.sessionId;
    expect(await latest()).toBe(newer);
    await runTo(space, older, 'older-changes');
    expect(await latest()).toBe(older);
  });

  it('an id or its first characters; an unknown start is not_found, one that several ids share is invalid_request naming them', async () => {
    const space = folder('prefixes');
    // Session ids are UUIDv7 (time first): two made a moment apart share their first characters.
    const one = (await request(app, 'session.create', { space })).session.sessionId;
    const two = (await request(app, 'session.create', { space })).session.sessionId;
    const named = async (session: string) =>
      (await request(app, 'session.resolve', { space, session })).session.sessionId;
    expect(await named(one)).toBe(one);
    const shared = sharedStart(one, two);
    expect(await named(two.slice(0, shared.length + 1))).toBe(two);

    const ambiguous = await refusal(request(app, 'session.resolve', { space, session: shared }));
    expect(ambiguous).toMatchObject({
      code: 'invalid_request',
      message: `'${shared}' matches 2 sessions: ${two}, ${one}.`,
      fix: 'Type more of the session id.',
      details: { candidates: [two, one] },
    });
    const unknown = await refusal(request(app, 'session.resolve', { space, session: 'zzzz' }));
    expect(unknown).toMatchObject({
      code: 'not_found',
      message: `Space ${space} has no session zzzz.`,
    });
    expect(unknown?.fix).toContain(`repa sessions list --space ${space}`);
  });

  it('a session that came with an untrusted space: refused by its id as every method refuses it, never named by its start or as latest', async () => {
    const elsewhere = folder('shipped-from');
    const { sessionId: shipped } = await createSpaceSession(elsewhere);
    const space = folder('shipped-to');
    mkdirSync(join(space, '.repa', 'sessions'), { recursive: true });
    for (const file of readdirSync(join(elsewhere, '.repa', 'sessions'))) {
      copyFileSync(
        join(elsewhere, '.repa', 'sessions', file),
        join(space, '.repa', 'sessions', file),
      );
    }
    writeFileSync(join(space, 'AGENTS.md'), 'Be brief.\n');
    const byId = await refusal(request(app, 'session.resolve', { space, session: shipped }));
    expect(byId?.message).toContain('came with this space');
    const byStart = await refusal(
      request(app, 'session.resolve', { space, session: shipped.slice(0, 8) }),
    );
    expect(byStart).toMatchObject({ code: 'not_found' });
    const latest = await refusal(request(app, 'session.resolve', { space, session: 'latest' }));
    expect(latest).toMatchObject({ code: 'not_found', message: `Space ${space} has no sessions.` });
  });
});

describe('which run a learner names (run.resolve)', () => {
  it('latest: not_found in a space without runs, else its most recent run, a steer into it counting as that run', async () => {
    const space = folder('latest-run');
    const none = await refusal(request(app, 'run.resolve', { run: 'latest', space }));
    expect(none).toMatchObject({ code: 'not_found', message: `Space ${space} has no runs yet.` });
    expect(none?.fix).toContain('repa run');
    const { sessionId } = (await request(app, 'session.create', { space })).session;
    const first = await runTo(space, sessionId, 'first');
    const latest = async () => (await request(app, 'run.resolve', { run: 'latest', space })).run;
    expect((await latest()).runId).toBe(first);

    let release = () => {};
    hold = new Promise<null>((resolve) => {
      release = () => resolve(null);
    });
    const { connection, events, next } = listener();
    const running = next();
    const { run: held } = await app.submit(
      { space, sessionId, requestId: 'held', input: { type: 'text', text: 'hi' } },
      connection,
    );
    await running;
    const { run: steer } = await app.submit(
      {
        space,
        sessionId,
        requestId: 'steer',
        input: { type: 'text', text: 'and the moon?' },
        delivery: 'steer',
      },
      listener().connection,
    );
    expect(steer.targetRunId).toBe(held.runId);
    expect((await latest()).runId).toBe(held.runId);
    hold = undefined;
    release();
    await ended(app, held.runId, events, next);
  });

  it('an id or its first characters among the runs of every space; an unknown start is not_found, a shared one invalid_request naming them', async () => {
    const space = folder('run-prefixes');
    const { sessionId } = (await request(app, 'session.create', { space })).session;
    // Run ids are random: of 17, two share at least their first character.
    const ids: string[] = [];
    let pair: [string, string] | undefined;
    while (pair === undefined) {
      const id = await runTo(space, sessionId, `run-${ids.length}`);
      const twin = ids.find((other) => other[0] === id[0]);
      if (twin !== undefined) pair = [id, twin];
      ids.push(id);
    }
    const [newer, older] = pair;
    const named = async (run: string) => (await request(app, 'run.resolve', { run })).run.runId;
    expect(await named(older)).toBe(older);
    const shared = sharedStart(newer, older);
    expect(await named(older.slice(0, shared.length + 1))).toBe(older);

    const ambiguous = await refusal(request(app, 'run.resolve', { run: shared }));
    expect(ambiguous).toMatchObject({
      code: 'invalid_request',
      fix: 'Type more of the run id.',
    });
    expect(ambiguous?.message).toMatch(new RegExp(`^'${shared}' matches \\d+ runs: ${newer}, `));
    expect(ambiguous?.details?.candidates).toEqual(expect.arrayContaining([newer, older]));
    const unknown = await refusal(request(app, 'run.resolve', { run: 'zzzz' }));
    expect(unknown).toMatchObject({ code: 'not_found', message: "No run id starts with 'zzzz'." });
  });

  it("latest of a session: that session's most recent run, not_found while it has none", async () => {
    const space = folder('latest-of-session');
    const one = (await request(app, 'session.create', { space })).session.sessionId;
    const two = (await request(app, 'session.create', { space })).session.sessionId;
    const ofOne = await runTo(space, one, 'of-one');
    const latestOf = (sessionId: string) =>
      request(app, 'run.resolve', { run: 'latest', space, sessionId });
    expect((await latestOf(one)).run.runId).toBe(ofOne);
    expect(await refusal(latestOf(two))).toMatchObject({
      code: 'not_found',
      message: `Session ${two} of ${space} has no runs yet.`,
    });
    const ofTwo = await runTo(space, two, 'of-two');
    expect((await latestOf(one)).run.runId).toBe(ofOne);
    expect((await latestOf(two)).run.runId).toBe(ofTwo);
  });

  it('latest without a space is invalid_request', async () => {
    expect(await refusal(request(app, 'run.resolve', { run: 'latest' }))).toMatchObject({
      code: 'invalid_request',
    });
  });
});
