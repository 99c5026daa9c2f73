import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath } from '@repa/fixtures';
import { RepaError, type RunEvent } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { RepaApplication } from './repa-application.js';
import { ended, listener, request } from './test/run-listener.js';
import { openTestApplication } from './test/test-application.js';

const flashcards = fixturePath('packages', 'flashcards');
const writeClash = fixturePath('packages', 'write-clash');

let app: RepaApplication | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function open() {
  const log: string[] = [];
  const opened = await openTestApplication({ log: (line) => log.push(line) });
  app = opened.app;
  const { base } = opened;
  const space = join(base, 'notes');
  mkdirSync(space);
  return { app, base, space, log };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (RepaError.isInstance(error) ? error.code : String(error)),
  );

/** Runs one request in the session and returns its `prompt-sections` event. */
async function promptReport(app: RepaApplication, space: string, sessionId: string, id: string) {
  const { connection, events, next } = listener();
  const accepted = await app.submit(
    { space, sessionId, requestId: id, input: { type: 'text', text: 'hi' } },
    connection,
  );
  const run = await ended(app, accepted.run.runId, events, next);
  expect(run.status).toBe('succeeded');
  return events.find(
    (event): event is Extract<RunEvent, { type: 'prompt-sections' }> =>
      event.type === 'prompt-sections',
  );
}

describe('packages.* (spec R75)', () => {
  it("adds a local package to the learner's Pi settings, lists it, and a session's next run loads it until it is removed", async () => {
    const { app, base, space } = await open();
    await request(app, 'space.open', { root: space });
    const { session } = await request(app, 'session.create', { space });
    expect((await promptReport(app, space, session.sessionId, 'a'))?.packageResources).toBe(
      undefined,
    );

    const added = await request(app, 'packages.add', { source: flashcards });
    expect(added).toEqual({
      package: {
        source: flashcards,
        level: 'application',
        filtered: false,
        installedPath: flashcards,
      },
      added: true,
    });
    const settings = JSON.parse(readFileSync(join(base, 'agent', 'settings.json'), 'utf8'));
    expect(settings.packages).toHaveLength(1);
    const listed = await request(app, 'packages.list', { space });
    expect(listed.packages.map((item) => item.source)).toEqual([flashcards]);
    expect(listed.resources).toContainEqual(
      expect.objectContaining({
        kind: 'tool',
        name: 'flashcard_export',
        source: flashcards,
        level: 'application',
      }),
    );
    expect(listed.diagnostics).toEqual([]);
    // The session opened before the change loads the package at its next run.
    const loaded = await promptReport(app, space, session.sessionId, 'b');
    expect(loaded?.packageResources?.map((item) => item.name)).toContain('flashcard_export');

    expect(await request(app, 'packages.remove', { source: flashcards })).toEqual({
      removed: true,
      activeRuns: 0,
    });
    expect((await request(app, 'packages.list', {})).packages).toEqual([]);
    expect((await promptReport(app, space, session.sessionId, 'c'))?.packageResources).toBe(
      undefined,
    );
  });

  it('refuses a space level without trust, an npm source while offline and a relative path', async () => {
    const { app, base } = await open();
    const course = join(base, 'course');
    mkdirSync(join(course, '.pi'), { recursive: true });
    writeFileSync(join(course, '.pi', 'settings.json'), '{}');
    const { space } = await request(app, 'space.open', { root: course });
    expect(space.trusted).toBe(false);
    const level = { level: 'space', space: course } as const;
    expect(await refusal(request(app, 'packages.add', { source: flashcards, ...level }))).toBe(
      'space_untrusted',
    );
    expect(await refusal(request(app, 'packages.add', { source: 'npm:pi-flashcards' }))).toBe(
      'offline',
    );
    expect(await refusal(request(app, 'packages.add', { source: 'flashcards' }))).toBe(
      'invalid_request',
    );
    expect(readFileSync(join(course, '.pi', 'settings.json'), 'utf8')).toBe('{}');

    await request(app, 'space.trust', { space: course, trusted: true });
    await request(app, 'packages.add', { source: flashcards, ...level });
    const listed = await request(app, 'packages.list', { space: course });
    expect(listed.packages).toMatchObject([{ source: flashcards, level: 'space' }]);
    expect(listed.resources).toContainEqual(
      expect.objectContaining({ kind: 'tool', name: 'flashcard_export', level: 'space' }),
    );
    // A space's own skill must lie inside the space (R54): this package's is reported, not offered.
    expect(listed.diagnostics).toMatchObject([
      { kind: 'skill', severity: 'warning', message: expect.stringContaining('inside the space') },
    ]);
  });

  it('lists and logs a package whose extension registers write as refused', async () => {
    const { app, space, log } = await open();
    await request(app, 'packages.add', { source: writeClash });
    const listed = await request(app, 'packages.list', {});
    expect(listed.diagnostics).toMatchObject([
      { kind: 'extension', severity: 'error', message: expect.stringContaining('tool write') },
    ]);
    await request(app, 'space.open', { root: space });
    const { session } = await request(app, 'session.create', { space });
    await promptReport(app, space, session.sessionId, 'a');
    expect(log.join('')).toMatch(/packages .*error extension .*clash\.js: .*tool write/);
  });
});
