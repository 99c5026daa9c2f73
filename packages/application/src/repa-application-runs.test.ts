import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionHistory } from '@repa/host';
import { createScriptedModel } from '@repa/host/testing';
import type { RunInfo } from '@repa/protocol';
import { describe, expect, it } from 'vitest';
import type { RepaApplicationOptions } from './application-options.js';
import { RepaApplication } from './repa-application.js';
import { tempAppDirectory } from './test/builders.js';
import { connectionOf, ended, listener, request } from './test/run-listener.js';
import { openTestApplication } from './test/test-application.js';

async function openApplication(
  options: Pick<RepaApplicationOptions, 'learningContextReader'> = {},
) {
  const { app, base } = await openTestApplication(options);
  const space = join(base, 'space');
  mkdirSync(space);
  // A session the application starts (Repa's own, in the plain folder it made a space).
  const created = await app.handlers()['session.create']?.({ space }, connectionOf(listener()));
  if (!created) throw new Error('session.create is not handled');
  return { app, space, sessionId: created.session.sessionId };
}

describe('RepaApplication runs', () => {
  it('gives the next run the revision context.set wrote; context.get reports it as last provided', async () => {
    const { app, space, sessionId } = await openApplication();
    const handlers = app.handlers();
    const quiet = connectionOf(listener());
    const lastProvided = async () =>
      (await handlers['context.get']?.({ space, sessionId }, quiet))?.lastProvidedRevision;
    const first = await handlers['context.set']?.(
      { space, body: 'Tides.', sources: [], expectedRevision: null },
      quiet,
    );
    for (const [requestId, expected] of [
      ['one', first?.revision],
      ['two', undefined],
    ] as const) {
      let revision = expected;
      if (revision === undefined) {
        const second = await handlers['context.set']?.(
          { space, body: 'Tides and moons.', sources: [], expectedRevision: first?.revision ?? '' },
          quiet,
        );
        revision = second?.revision;
        expect(await lastProvided()).toBe(first?.revision);
      }
      const { connection, events, next } = listener();
      const { run } = await app.submit(
        { space, sessionId, requestId, input: { type: 'text', text: 'hi' } },
        connection,
      );
      expect((await ended(app, run.runId, events, next)).status).toBe('succeeded');
      expect(await lastProvided()).toBe(revision);
    }
    await app.close();
  });

  it('cancels a run whose learning context is still being read: cancelled, no model request', async () => {
    // The learning-context read stays pending until released, holding the run at its start.
    let release = () => {};
    const held = new Promise<null>((resolve) => {
      release = () => resolve(null);
    });
    const { app, space, sessionId } = await openApplication({ learningContextReader: () => held });
    const { connection, events, next } = listener();
    const running = next();
    const { run } = await app.submit(
      { space, sessionId, requestId: 'held', input: { type: 'text', text: 'hi' } },
      connection,
    );
    await running;
    expect(events[0]).toEqual({ type: 'status', status: 'running' });
    const cancelling = app.cancel(run.runId);
    release();
    const cancelled = await cancelling;
    expect(cancelled).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect((await ended(app, run.runId, events, next)).status).toBe('cancelled');
    // No model request: nothing streamed and nothing entered the session's history.
    expect(events.map((event) => event.type)).not.toContain('text-delta');
    expect(await readSessionHistory(space, sessionId)).toEqual({ items: [] });
    await app.close();
  });

  it('is not idle and refuses to delete the session while a run is active; then it is and does', async () => {
    let release = () => {};
    const held = new Promise<null>((resolve) => {
      release = () => resolve(null);
    });
    const { app, space, sessionId } = await openApplication({ learningContextReader: () => held });
    expect(app.idle).toBe(true);
    const { connection, events, next } = listener();
    const running = next();
    const { run } = await app.submit(
      { space, sessionId, requestId: 'busy', input: { type: 'text', text: 'hi' } },
      connection,
    );
    expect(app.idle).toBe(false);
    await running;
    expect(app.idle).toBe(false);
    await expect(request(app, 'session.delete', { space, sessionId })).rejects.toMatchObject({
      code: 'busy',
    });
    release();
    await ended(app, run.runId, events, next);
    expect(app.idle).toBe(true);
    expect(await request(app, 'session.delete', { space, sessionId })).toEqual({
      sessionId,
      runsRemoved: 1,
    });
    expect(await app.handlers()['session.list']?.({ space }, connection)).toEqual({ sessions: [] });
    await app.close();
  });

  it('keeps the trust of a space in the app directory across a restart', async () => {
    const base = tempAppDirectory();
    const space = join(base, 'space');
    mkdirSync(space);
    // Someone else's folder (a plain one would start trusted: Repa makes it a space).
    writeFileSync(join(space, 'AGENTS.md'), 'Be brief.\n');
    const options = {
      appDirectory: join(base, 'app'),
      agentDir: join(base, 'agent'),
      model: await createScriptedModel(),
    };
    const { connection } = listener();
    const first = await RepaApplication.open(options);
    expect((await request(first, 'space.open', { root: space })).space.trusted).toBe(false);
    const trust = first.handlers()['space.trust'];
    expect(await trust?.({ space, trusted: true }, connection)).toMatchObject({
      space,
      trusted: true,
      wasTrusted: false,
      restricted: [{ kind: 'instructions', path: 'AGENTS.md' }],
    });
    await first.close();
    const second = await RepaApplication.open(options);
    expect((await request(second, 'space.open', { root: space })).space.trusted).toBe(true);
    await second.handlers()['space.trust']?.({ space, trusted: false }, connection);
    expect((await request(second, 'space.open', { root: space })).space.trusted).toBe(false);
    await second.close();
  });

  it('records each prompt setting’s source level with the run and says it in the report', async () => {
    const { app, space, sessionId } = await openApplication();
    await app
      .handlers()
      ['settings.set']?.(
        { level: 'space', space, key: 'prompts.append', value: 'SPACE APPEND' },
        connectionOf(listener()),
      );
    const { connection, events, next } = listener();
    const { run } = await app.submit(
      { space, sessionId, requestId: 'sourced', input: { type: 'text', text: 'hi' } },
      connection,
    );
    expect(run.settingsSources).toMatchObject({ append: 'space', base: 'default' });
    const done = await ended(app, run.runId, events, next);
    expect(done.status).toBe('succeeded');
    expect(done.settingsSources).toEqual(run.settingsSources);
    const append = done.promptSections?.find((section) => section.name === 'append');
    expect(append?.reason).toBe('set by space override');
    const base = done.promptSections?.find((section) => section.name === 'base');
    expect(base?.reason).toBe('built-in base prompt');
    const environment = done.promptSections?.find((section) => section.name === 'environment');
    expect(environment?.reason).toBe(
      'enabled by default; learning context on by default; study summary on by default',
    );
    // A brief listing leaves the report out; a full one and run.get keep it.
    const list = app.handlers()['run.list'];
    const full = (await list?.({ space, sessionId }, connection)) as { runs: RunInfo[] };
    expect(full.runs[0]?.promptSections).toEqual(done.promptSections);
    const brief = (await list?.({ space, sessionId, brief: true }, connection)) as {
      runs: RunInfo[];
    };
    expect(brief.runs[0]).toEqual({ ...full.runs[0], promptSections: undefined });
    expect(brief.runs[0]).not.toHaveProperty('promptSections');
    await app.close();
  });
  it('records the model settings and one-run overrides at acceptance, and a retry keeps the overrides', async () => {
    const { app, space, sessionId } = await openApplication();
    const set = app.handlers()['settings.set'];
    await set?.(
      { level: 'space', space, key: 'tools.enabled', value: ['read', 'grep'] },
      connectionOf(listener()),
    );
    await set?.(
      { level: 'application', key: 'model.thinkingLevel', value: 'low' },
      connectionOf(listener()),
    );
    await set?.(
      { level: 'space', space, key: 'tools.bash', value: 'sandboxed' },
      connectionOf(listener()),
    );
    const { connection, events, next } = listener();
    const { run } = await app.submit(
      {
        space,
        sessionId,
        requestId: 'override',
        input: { type: 'text', text: 'hi' },
        overrides: { thinkingLevel: 'high', studyMode: 'tutor' },
      },
      connection,
    );
    expect(run.modelSettings).toEqual({
      model: null,
      thinkingLevel: 'high',
      tools: ['read', 'grep'],
      bash: 'sandboxed',
      bashTimeoutSeconds: 120,
      edits: 'auto',
      studyMode: 'tutor',
      ocrLanguages: ['eng'],
    });
    expect(run.modelSettingsSources).toEqual({
      model: 'default',
      thinkingLevel: 'run',
      tools: 'space',
      bash: 'space',
      bashTimeoutSeconds: 'default',
      edits: 'default',
      studyMode: 'run',
      ocrLanguages: 'default',
    });
    // A change after acceptance does not reach the accepted run (R20, R72).
    await set?.(
      { level: 'space', space, key: 'tools.enabled', value: ['ls'] },
      connectionOf(listener()),
    );
    const done = await ended(app, run.runId, events, next);
    expect(done.status).toBe('succeeded');
    expect(done.modelSettings).toEqual(run.modelSettings);
    expect(done.model).toEqual(expect.stringMatching(/\//));

    const retried = await app.retry(run.runId, 'override-retry');
    expect(retried.run.modelSettings).toEqual({
      model: null,
      thinkingLevel: 'high',
      tools: ['ls'],
      bash: 'sandboxed',
      bashTimeoutSeconds: 120,
      edits: 'auto',
      studyMode: 'tutor',
      ocrLanguages: ['eng'],
    });
    expect(retried.run.modelSettingsSources?.thinkingLevel).toBe('run');
    await app.cancel(retried.run.runId);
    await app.close();
  });

  it("records the answer's checked citations on the run, its last status event and its history item", async () => {
    const { app, space, sessionId } = await openApplication();
    writeFileSync(join(space, 'notes.md'), 'Never read.\n');
    const { connection, events, next } = listener();
    const { run } = await app.submit(
      {
        space,
        sessionId,
        requestId: 'cite',
        input: { type: 'text', text: 'see [notes.md:1] [gone.md:2]' },
      },
      connection,
    );
    const finished = await ended(app, run.runId, events, next);
    const expected = [
      { index: 1, document: 'notes.md', target: 'notes.md', status: 'not_read' },
      { index: 2, document: 'gone.md', status: 'unknown_document' },
    ];
    expect(finished.citations).toMatchObject(expected);
    expect(events.at(-1)).toMatchObject({
      type: 'status',
      status: 'succeeded',
      citations: expected,
    });
    const { items } = await request(app, 'session.history', { space, sessionId });
    expect(items.find((item) => item.kind === 'assistant')?.citations).toMatchObject(expected);
    await app.close();
  });

  it('shows the citations of a run as they stand now: a cited note edited since is changedSince (R60)', async () => {
    const { app, space, sessionId } = await openApplication();
    writeFileSync(join(space, 'notes.md'), 'Tides follow the Moon.\n');
    writeFileSync(join(space, 'other.md'), 'Never read.\n');
    const { connection, events, next } = listener();
    const { run } = await app.submit(
      {
        space,
        sessionId,
        requestId: 'cite-now',
        input: { type: 'text', text: 'read notes.md then see [notes.md:1] [other.md:1]' },
      },
      connection,
    );
    await ended(app, run.runId, events, next);
    const before = (await request(app, 'run.get', { runId: run.runId })).run.citations;
    expect(before).toMatchObject([
      { document: 'notes.md', status: 'verified' },
      { document: 'other.md', status: 'not_read' },
    ]);
    expect(before?.map((citation) => citation.changedSince)).toEqual([undefined, undefined]);
    writeFileSync(join(space, 'notes.md'), 'Edited since.\n');
    const after = (await request(app, 'run.get', { runId: run.runId })).run.citations;
    expect(after?.map((citation) => citation.changedSince)).toEqual([true, undefined]);
    await app.close();
  });
});
