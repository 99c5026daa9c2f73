// Spec R66 through the application: a cancel that arrives while a save is on disk but not yet
// committed is accepted; the save finishes, is reported with its receipt, and the model is not
// asked again.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedModel } from '@repa/host/testing';
import type { RunEvent } from '@repa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { RepaApplication } from './repa-application.js';
import type { ConnectionContext } from './server/repa-handlers.js';
import { deferred, tempAppDirectory } from './test/builders.js';

function recordingConnection(events: RunEvent[]): ConnectionContext {
  return {
    connectionId: 'test',
    transport: 'unix',
    notify: (_method, params) => {
      if ('event' in params) events.push(params.event as RunEvent);
      return true;
    },
    onClose: () => () => undefined,
  } as ConnectionContext;
}

describe('RepaApplication.cancel', () => {
  let app: RepaApplication | undefined;
  afterEach(async () => {
    await app?.close({ graceMs: 0 });
  });

  it('accepts a cancel while a save is held after its temp file; the save completes and is reported', async () => {
    const base = tempAppDirectory();
    const space = join(base, 'space');
    mkdirSync(space);
    const held = deferred();
    const release = deferred();
    let modelRequests = 0;
    app = await RepaApplication.open({
      appDirectory: join(base, 'app'),
      agentDir: join(base, 'agent'),
      model: await createScriptedModel({
        onRequest: () => {
          modelRequests += 1;
        },
      }),
      contentHooks: {
        step: async (step) => {
          if (step !== 'temp-written') return;
          held.resolve();
          await release.promise;
        },
      },
    });
    const handlers = app.handlers();
    const session = await handlers['session.create']?.({ space }, recordingConnection([]));
    const sessionId = session?.session.sessionId ?? '';
    const events: RunEvent[] = [];
    const { run } = await app.submit(
      {
        requestId: 'r1',
        space,
        sessionId,
        input: { type: 'text', text: 'save kept.md then hold' },
      },
      recordingConnection(events),
    );

    await held.promise;
    const cancelling = app.cancel(run.runId);
    // Every step of the cancel that does not wait for Pi's loop has run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.some((event) => event.type === 'tool-end')).toBe(false);
    release.resolve();
    const cancelled = await cancelling;

    expect(cancelled).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    const toolEnd = events.find((event) => event.type === 'tool-end');
    expect(toolEnd).toMatchObject({
      toolName: 'write',
      isError: false,
      receipts: [{ target: 'kept.md' }],
    });
    expect(readFileSync(join(space, 'kept.md'), 'utf8')).toBe('saved before cancel\n');
    // The cancel was taken while the save was held: Pi did not ask the model again after it.
    expect(modelRequests).toBe(1);
  });
});
