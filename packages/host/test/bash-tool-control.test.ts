// Spec R67, R74: the sandboxed `bash` tool through Pi's real agent loop (faux provider): a command
// beside the other tools, stopping a command, and turning the tool on and off (what a command can
// reach is in bash-tool.test.ts). These tests need bubblewrap, as that file's.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fauxAssistantMessage, fauxToolCall } from '@earendil-works/pi-ai';
import type { RunEvent } from '@repa/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import {
  alive,
  bash,
  defaults,
  needBubblewrap,
  processesRunning,
  run,
  sandboxed,
  toolEnds,
  toolResults,
  until,
} from './bash-runs.js';
import { reply } from './faux-replies.js';

beforeAll(needBubblewrap);
describe('a command and the other tools in one space', () => {
  it('runs a grep of the same message only after the command ended: a folder swapped for a link is not followed', async () => {
    const secret = mkdtempSync(join(tmpdir(), 'repa-bash-secret-'));
    writeFileSync(join(secret, 'secret.md'), 'needle outside\n');
    const space = mkdtempSync(join(tmpdir(), 'repa-bash-space-'));
    mkdirSync(join(space, 'notes'));
    writeFileSync(join(space, 'notes/a.md'), 'needle inside\n');
    const { host, faux } = await createFauxHost({ space });
    // One message, two calls: Pi runs them in parallel.
    faux.setResponses([
      fauxAssistantMessage(
        [
          fauxToolCall('bash', {
            command: `touch started; until [ -e release ]; do sleep 0.01; done; mv notes kept; ln -s ${secret} notes`,
          }),
          fauxToolCall('grep', { pattern: 'needle' }),
        ],
        { stopReason: 'toolUse' },
      ),
      reply('done'),
    ]);
    const events: RunEvent[] = [];
    let grepEnded = () => {};
    const grepDone = new Promise<void>((resolve) => {
      grepEnded = resolve;
    });
    const sent = host.send('go', defaults, {
      modelSettings: sandboxed,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'tool-end' && event.toolName === 'grep') grepEnded();
      },
    });
    // The command is running; it goes on once grep has ended, or (grep waiting for it) soon.
    await until(() => (existsSync(join(space, 'started')) ? true : undefined));
    await Promise.race([grepDone, sleep(300)]);
    writeFileSync(join(space, 'release'), '');
    expect((await sent).status).toBe('succeeded');
    expect(toolEnds(events).map((end) => end.toolName)).toEqual(['bash', 'grep']);
    const [, grep] = toolResults(host);
    expect(grep).toContain('kept/a.md:1: needle inside');
    expect(grep).not.toContain('notes/a.md');
    expect(grep).not.toContain('needle outside');
    host.dispose();
  });
});

describe('stopping a command', () => {
  it('kills a command at its time limit, with SIGKILL when it ignores SIGTERM', async () => {
    const { results, events } = await run(
      [bash("trap '' TERM; echo started; sleep 31402"), bash('sleep 31403', 1)],
      { ...sandboxed, bashTimeoutSeconds: 1 },
      { bashLimits: { graceMillis: 300 } },
    );
    expect(results[0]).toContain('started');
    expect(results[0]).toContain('Command timed out after 1 seconds');
    expect(results[0]).toContain('stopped (timeout) with SIGKILL');
    expect(results[1]).toContain('stopped (timeout) with SIGTERM');
    expect(toolEnds(events).map((end) => end.isError)).toEqual([true, true]);
    expect(processesRunning(['sleep', '31402'])).toEqual([]);
    expect(processesRunning(['sleep', '31403'])).toEqual([]);
  });

  it('takes the shorter of the model’s timeout and the setting', async () => {
    const { results } = await run([bash('sleep 31404', 1)], sandboxed);
    expect(results[0]).toContain('Command timed out after 1 seconds');
  });

  it('kills the whole process tree when the run is cancelled', async () => {
    const { host, faux } = await createFauxHost();
    faux.setResponses([bash('sleep 31405 & sleep 31406 & wait'), reply('done')]);
    const sent = host.send('go', defaults, { modelSettings: sandboxed });
    const pids = await until(() => {
      const found = [
        ...processesRunning(['sleep', '31405']),
        ...processesRunning(['sleep', '31406']),
      ];
      return found.length === 2 ? found : undefined;
    });
    await host.cancel();
    const outcome = await sent;
    expect(outcome.status).toBe('cancelled');
    expect(pids.filter(alive)).toEqual([]);
    host.dispose();
  });

  it('kills a running command when the host is disposed', async () => {
    const { host, faux } = await createFauxHost({ bashLimits: { graceMillis: 200 } });
    faux.setResponses([bash("trap '' TERM; sleep 31407"), reply('done')]);
    const sent = host.send('go', defaults, { modelSettings: sandboxed });
    const [pid] = await until(() => {
      const found = processesRunning(['sleep', '31407']);
      return found.length > 0 ? found : undefined;
    });
    host.dispose();
    await sent.catch(() => undefined);
    await until(() => (alive(pid as number) ? undefined : true));
    expect(alive(pid as number)).toBe(false);
  });
});

describe('turning the bash tool on and off', () => {
  const bashOffered = (system: unknown) =>
    JSON.stringify(system).includes('<tool name=\\"bash\\">');

  it('offers no bash tool while tools.bash is off, and offers it when sandboxed', async () => {
    const off = await run([], { ...sandboxed, bash: 'off' });
    expect(off.host.session.getActiveToolNames()).not.toContain('bash');
    expect(bashOffered(off.requests[0]?.messages[0])).toBe(false);
    const omitted = await run([], { model: null, thinkingLevel: null, tools: null });
    expect(bashOffered(omitted.requests[0]?.messages[0])).toBe(false);
    const on = await run([], sandboxed);
    expect(on.host.session.getActiveToolNames()).toContain('bash');
    expect(bashOffered(on.requests[0]?.messages[0])).toBe(true);
  });

  it('leaves bash out when tools.enabled does not name it, and refuses it by name while off', async () => {
    const narrowed = await run([], { ...sandboxed, tools: ['read'] });
    expect(narrowed.host.session.getActiveToolNames()).toEqual(['read']);
    const refused = await run([], { ...sandboxed, bash: 'off', tools: ['read', 'bash'] });
    expect(refused.outcome.error).toMatchObject({ code: 'invalid_request' });
    expect(refused.outcome.error?.fix).toContain('tools.bash sandboxed');
    expect(refused.requests).toHaveLength(0);
  });

  it('fails the run with sandbox_unavailable when bwrap is not on the PATH, before any request', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'repa-no-bwrap-'));
    mkdirSync(join(empty, 'bin'));
    const saved = process.env.PATH;
    process.env.PATH = join(empty, 'bin');
    try {
      const { outcome, requests } = await run([bash('echo should not run > ran.txt')]);
      expect(outcome.status).toBe('failed');
      expect(outcome.error?.code).toBe('sandbox_unavailable');
      expect(outcome.error?.fix).toContain('apt-get install bubblewrap');
      expect(requests).toHaveLength(0);
    } finally {
      process.env.PATH = saved;
    }
  });
});
