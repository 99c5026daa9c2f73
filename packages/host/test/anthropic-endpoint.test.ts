import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsManager } from '@earendil-works/pi-coding-agent';
import {
  type AnthropicEndpoint,
  type AnthropicReply,
  startAnthropicEndpoint,
} from '@repa/fixtures';
import type { ModelSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PiConversationHost } from '../src/conversation/pi-conversation-host.js';
import { buildLearningContext } from '../src/learning-context/build-learning-context.js';
import { PiModels } from '../src/models/pi-models.js';

// Pi's real Anthropic Messages client (not a faux provider) against a local endpoint speaking the
// protocol, declared in Pi's models.json as provider `local` with `api: "anthropic-messages"`.
let endpoint: AnthropicEndpoint;
let models: PiModels;
let base: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'repa-anthropic-'));
  const agentDir = join(base, 'agent');
  mkdirSync(agentDir);
  endpoint = await startAnthropicEndpoint([]);
  endpoint.configure(agentDir, { apiKey: 'sk-local-test' });
  models = await PiModels.open({ agentDir });
});

afterAll(async () => {
  await endpoint.close();
});

const inherit: ModelSettings = { model: 'local/claude-local', thinkingLevel: 'off', tools: null };

/** A host in a fresh space on `local/claude-local`; Pi retries twice, 1 ms apart, plus `provider`. */
async function hostWith(replies: AnthropicReply[], retry: { provider?: number } = {}) {
  const space = mkdtempSync(join(base, 'space-'));
  endpoint.replies = replies;
  endpoint.requests.length = 0;
  const { model } = await models.decide({ model: 'local/claude-local' });
  const host = await PiConversationHost.open({
    space,
    appDirectory: join(base, 'app'),
    agentDir: models.agentDir,
    modelRuntime: models.modelRuntime,
    model,
    piSettings: SettingsManager.inMemory({
      compaction: { enabled: false },
      retry: {
        enabled: true,
        maxRetries: 2,
        baseDelayMs: 1,
        ...(retry.provider === undefined ? {} : { provider: { maxRetries: retry.provider } }),
      },
    }),
  });
  const events: RunEvent[] = [];
  const send = (text: string, modelSettings: ModelSettings = inherit) =>
    host.send(text, DEFAULT_PROMPT_SETTINGS, {
      onEvent: (event) => events.push(event),
      modelSettings,
    });
  return { host, space, events, send };
}

const retries = (events: RunEvent[]) => events.filter((event) => event.type === 'retry');

describe("Pi's Anthropic client against a local Messages endpoint", () => {
  it('streams text after a signed thinking block and records the usage with its cache figures', async () => {
    const { host, events, send } = await hostWith([
      {
        kind: 'message',
        blocks: [
          { type: 'thinking', thinking: 'The notes say six hours.', signature: 'sig-1' },
          { type: 'text', text: 'The tide turns every six hours.' },
        ],
        usage: { input: 120, output: 9, cacheRead: 300, cacheWrite: 40 },
      },
    ]);
    const outcome = await send('When does the tide turn?', { ...inherit, thinkingLevel: 'high' });
    expect(outcome).toMatchObject({
      status: 'succeeded',
      output: 'The tide turns every six hours.',
      model: 'local/claude-local',
      connection: 'local:models-json',
      usage: { input: 120, output: 9, cacheRead: 300, cacheWrite: 40, totalTokens: 469, calls: 1 },
    });
    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    const [request] = endpoint.requests;
    expect(request?.path).toMatch(/^\/v1\/messages/);
    expect(request?.headers['x-api-key']).toBe('sk-local-test');
    expect(request?.body).toMatchObject({ model: 'claude-local', stream: true });
    expect(request?.body.thinking).toMatchObject({
      type: expect.stringMatching(/enabled|adaptive/),
    });
    // The signed thinking block stays in Pi's history with its signature.
    const reply = host.session.messages.at(-1);
    expect(reply).toMatchObject({
      role: 'assistant',
      content: [{ type: 'thinking', thinkingSignature: 'sig-1' }, { type: 'text' }],
    });
    host.dispose();
  });

  it('runs a tool call streamed as input_json_delta, then answers from the tool result', async () => {
    const { host, space, events, send } = await hostWith([
      {
        kind: 'message',
        blocks: [{ type: 'tool_use', name: 'read', input: { path: 'tides.md' } }],
      },
      { kind: 'message', blocks: [{ type: 'text', text: 'They follow the full moon.' }] },
    ]);
    writeFileSync(join(space, 'tides.md'), 'Spring tides follow the full moon.\n');
    const outcome = await send('Read tides.md');
    expect(outcome).toMatchObject({ status: 'succeeded', output: 'They follow the full moon.' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool-start', toolName: 'read', args: { path: 'tides.md' } }),
    );
    const second = JSON.stringify(endpoint.requests[1]?.body.messages);
    expect(second).toContain('tool_result');
    expect(second).toContain('Spring tides follow the full moon.');
    host.dispose();
  });

  it('fails a 401 as auth_failed naming the connection, without retrying', async () => {
    const { host, events, send } = await hostWith([
      { kind: 'status', status: 401, message: 'invalid x-api-key' },
    ]);
    const outcome = await send('hi');
    expect(outcome.error).toMatchObject({
      code: 'auth_failed',
      details: { provider: 'local', status: 401, connection: 'local:models-json' },
    });
    expect(outcome.error?.message).toContain('invalid x-api-key');
    expect(retries(events)).toHaveLength(0);
    host.dispose();
  });

  it('honours retry-after on a 429, retries, then fails rate_limited when it outlasts Pi', async () => {
    const { host, events, send } = await hostWith(
      [{ kind: 'status', status: 429, message: 'Rate limited', headers: { 'retry-after': '0' } }],
      { provider: 1 },
    );
    const outcome = await send('hi');
    expect(outcome.error).toMatchObject({ code: 'rate_limited', details: { retries: 2 } });
    expect(retries(events)).toHaveLength(2);
    // Each of Pi's three attempts is retried once by the client after `retry-after`.
    expect(endpoint.requests).toHaveLength(6);
    host.dispose();
  });

  it('fails a 529 overloaded as provider_overloaded after Pi’s retries, shown as retries', async () => {
    const { host, events, send } = await hostWith([
      { kind: 'status', status: 529, message: 'Overloaded' },
    ]);
    const outcome = await send('hi');
    expect(outcome.error).toMatchObject({
      code: 'provider_overloaded',
      details: { provider: 'local', status: 529, retries: 2 },
    });
    expect(outcome.error?.message).toContain('Pi retried 2 times');
    expect(retries(events).map((event) => event.type === 'retry' && event.reason)).toEqual([
      expect.stringContaining('overloaded'),
      expect.stringContaining('overloaded'),
    ]);
    host.dispose();
  });

  it('retries a stream dropped mid-reply, and fails provider_unreachable when it keeps dropping', async () => {
    const recovered = await hostWith([
      { kind: 'drop', text: 'The ti' },
      { kind: 'message', blocks: [{ type: 'text', text: 'The tide turns.' }] },
    ]);
    expect(await recovered.send('hi')).toMatchObject({
      status: 'succeeded',
      output: 'The tide turns.',
    });
    expect(retries(recovered.events)).toHaveLength(1);
    recovered.host.dispose();
    const dropped = await hostWith([{ kind: 'drop', text: 'The ti' }]);
    const outcome = await dropped.send('hi');
    expect(outcome.error).toMatchObject({
      code: 'provider_unreachable',
      details: { host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
    });
    expect(outcome.error?.message).toContain('dropped');
    dropped.host.dispose();
  });
});

describe('credentials that change under a running daemon', () => {
  it('uses a key stored after the runtime opened; once it is removed the next run fails auth_failed naming the connection, before the request enters the history', async () => {
    const agentDir = mkdtempSync(join(base, 'agent-'));
    endpoint.configure(agentDir, { provider: 'keyless' });
    const keyless = await PiModels.open({ agentDir });
    expect((await keyless.decide({ model: 'keyless/claude-small' })).decision.credentials).toBe(
      false,
    );
    writeFileSync(
      join(agentDir, 'auth.json'),
      JSON.stringify({ keyless: { type: 'api_key', key: 'sk-stored' } }),
    );
    const { decision, model } = await keyless.decide({ model: 'keyless/claude-small' });
    expect(decision).toMatchObject({ credentials: true, connection: 'keyless:auth-file' });
    endpoint.replies = [{ kind: 'message', blocks: [{ type: 'text', text: 'Keyed.' }] }];
    endpoint.requests.length = 0;
    const host = await PiConversationHost.open({
      space: mkdtempSync(join(base, 'space-')),
      appDirectory: join(base, 'app'),
      agentDir,
      modelRuntime: keyless.modelRuntime,
      model,
      piSettings: SettingsManager.inMemory({ compaction: { enabled: false } }),
    });
    const settings = { model: 'keyless/claude-small', thinkingLevel: null, tools: null };
    const send = () =>
      host.send('hi', DEFAULT_PROMPT_SETTINGS, {
        modelSettings: settings,
        connection: decision.connection,
      });
    expect(await send()).toMatchObject({ status: 'succeeded', output: 'Keyed.' });
    expect(endpoint.requests.at(-1)?.headers['x-api-key']).toBe('sk-stored');
    writeFileSync(join(agentDir, 'auth.json'), '{}');
    const messages = host.session.messages.length;
    const outcome = await send();
    expect(outcome.error).toMatchObject({
      code: 'auth_failed',
      details: { connection: 'keyless:auth-file' },
    });
    expect(outcome.error?.message).toContain('keyless:auth-file');
    expect(endpoint.requests).toHaveLength(1);
    // Refused before the request entered Pi's history: nothing to clean up or resume.
    expect(host.session.messages).toHaveLength(messages);
    host.dispose();
  });
});

describe('a learning-context build on the endpoint', () => {
  it('is retried by Pi like a run (progress `retry`) and fails with a run’s codes', async () => {
    const space = mkdtempSync(join(base, 'space-'));
    writeFileSync(join(space, 'tides.md'), '# Tides\nThe tide turns every six hours.\n');
    const { decision, model } = await models.decide({ model: 'local/claude-small' });
    const choice = {
      modelRuntime: models.modelRuntime,
      model,
      label: decision.model,
      offline: false,
    };
    const piSettings = SettingsManager.inMemory({
      retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 },
    });
    endpoint.replies = [
      { kind: 'status', status: 529, message: 'Overloaded' },
      { kind: 'message', blocks: [{ type: 'text', text: '## Working on\nTides.' }] },
    ];
    const steps: string[] = [];
    const built = await buildLearningContext(space, choice, {
      sources: ['tides.md'],
      piSettings,
      onProgress: ({ step }) => steps.push(step),
    });
    expect(built).toMatchObject({ body: '## Working on\nTides.\n', model: 'local/claude-small' });
    expect(steps).toEqual(['reading', 'model', 'retry']);
    endpoint.replies = [{ kind: 'status', status: 401, message: 'invalid x-api-key' }];
    await expect(
      buildLearningContext(space, choice, {
        sources: ['tides.md'],
        piSettings,
        connection: decision.connection,
      }),
    ).rejects.toMatchObject({
      code: 'auth_failed',
      details: { connection: 'local:models-json', status: 401 },
    });
    endpoint.replies = [{ kind: 'status', status: 529, message: 'Overloaded' }];
    await expect(
      buildLearningContext(space, choice, { sources: ['tides.md'], piSettings }),
    ).rejects.toMatchObject({ code: 'provider_overloaded', details: { retries: 2 } });
  });
});
