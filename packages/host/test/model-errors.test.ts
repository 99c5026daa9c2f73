import type { EndpointReply, OpenAiEndpoint } from '@repa/fixtures';
import type { RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { endpointHosts } from './endpoint-host.js';

const openHost = endpointHosts();
let endpoint: OpenAiEndpoint | undefined;

/** A host on the test endpoint's `test/plain`, with Pi's retries on and a 1 ms backoff. */
async function hostOn(replies: EndpointReply[], options: { refused?: boolean } = {}) {
  const opened = await openHost(replies, {
    refused: options.refused,
    piSettings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } },
  });
  const { host } = opened;
  endpoint = opened.endpoint;
  const events: RunEvent[] = [];
  const send = (text: string) =>
    host.send(text, DEFAULT_PROMPT_SETTINGS, { onEvent: (event) => events.push(event) });
  return { host, events, send };
}

describe('model errors from a real OpenAI-compatible endpoint', () => {
  it('fails a 401 as auth_failed naming the provider', async () => {
    const { host, send } = await hostOn([
      { kind: 'status', status: 401, message: 'Incorrect API key provided' },
    ]);
    const outcome = await send('hi');
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('auth_failed');
    expect(outcome.error?.message).toContain('Incorrect API key provided');
    expect(outcome.error?.details).toMatchObject({
      provider: 'test',
      status: 401,
      connection: 'test:models-json',
    });
    host.dispose();
  });

  it('fails a refused connection as provider_unreachable with the host it tried', async () => {
    const { host, send } = await hostOn([], { refused: true });
    const outcome = await send('hi');
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('provider_unreachable');
    expect(String(outcome.error?.details?.host)).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(outcome.error?.message).toContain(String(outcome.error?.details?.host));
    host.dispose();
  });

  it('shows Pi’s retries after a 429 as retry events, then succeeds', async () => {
    const { host, events, send } = await hostOn([
      {
        kind: 'status',
        status: 429,
        message: 'Rate limit reached',
        headers: { 'retry-after': '0' },
      },
      { kind: 'text', text: 'Hello after waiting.' },
    ]);
    const outcome = await send('hi');
    expect(outcome).toMatchObject({ status: 'succeeded', output: 'Hello after waiting.' });
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries).toEqual([
      {
        type: 'retry',
        attempt: 1,
        maxAttempts: 2,
        delayMs: 1,
        reason: expect.stringContaining('429'),
      },
    ]);
    host.dispose();
  });

  it('fails a 429 that outlasts Pi’s retries as rate_limited', async () => {
    const { host, events, send } = await hostOn([
      { kind: 'status', status: 429, message: 'Rate limit reached' },
    ]);
    const outcome = await send('hi');
    expect(outcome.error?.code).toBe('rate_limited');
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(2);
    expect(outcome.error?.details).toMatchObject({ retries: 2, lastRetryDelayMs: 2 });
    expect(outcome.error?.message).toContain('Pi retried 2 times, the last after 2 ms.');
    host.dispose();
  });

  it('retries a resumption like a run: a 529 is retried by Pi, then the reply comes', async () => {
    const { host, events } = await hostOn([
      { kind: 'status', status: 400, message: 'Unknown parameter: foo' },
    ]);
    const failed = await host.send('hi', DEFAULT_PROMPT_SETTINGS, { runId: 'run-a' });
    expect(failed.error?.code).toBe('model_error');
    const before = endpoint?.requests.length ?? 0;
    if (endpoint) {
      endpoint.replies = [
        { kind: 'status', status: 529, message: 'Overloaded' },
        { kind: 'text', text: 'Resumed after the overload.' },
      ];
    }
    const resumed = await host.resume(
      { runId: 'run-a', text: 'hi', marked: true },
      DEFAULT_PROMPT_SETTINGS,
      { runId: 'run-a2', onEvent: (event) => events.push(event) },
    );
    expect(resumed).toMatchObject({ status: 'succeeded', output: 'Resumed after the overload.' });
    // Two requests, the 529 and its retry, as a normal run makes (R73: the retry is Pi's).
    expect((endpoint?.requests.length ?? 0) - before).toBe(2);
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(1);
    host.dispose();
  });

  it('fails another provider error as model_error with the provider’s message', async () => {
    const { host, send } = await hostOn([
      { kind: 'status', status: 400, message: 'Unknown parameter: foo' },
    ]);
    const outcome = await send('hi');
    expect(outcome.error?.code).toBe('model_error');
    expect(outcome.error?.message).toContain('Unknown parameter: foo');
    host.dispose();
  });

  it('records the provider’s token usage of a completed run', async () => {
    const { host, send } = await hostOn([
      { kind: 'text', text: 'Counted.', usage: { prompt: 120, completion: 7 } },
    ]);
    const outcome = await send('hi');
    expect(outcome.usage).toMatchObject({
      input: 120,
      output: 7,
      totalTokens: 127,
      calls: 1,
      contextWindow: expect.any(Number),
    });
    // Pi knows no price for a models.json model without one: no cost is claimed.
    expect(outcome.usage?.cost).toBeUndefined();
    host.dispose();
  });
});
