import type { ModelSettings } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { endpointHosts } from './endpoint-host.js';

const openHost = endpointHosts();

/** The tool names of one OpenAI chat request. */
function toolNames(request: Record<string, unknown> | undefined): string[] {
  const tools = (request?.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name);
}

const inherit: ModelSettings = { model: null, thinkingLevel: null, tools: null };

/** A host whose default model is `test/plain` on a test endpoint that always says "ok". */
async function hostOnEndpoint() {
  const { host, endpoint } = await openHost([{ kind: 'text', text: 'ok' }]);
  const send = (modelSettings: ModelSettings) =>
    host.send('hi', DEFAULT_PROMPT_SETTINGS, { modelSettings });
  return { host, send, requests: endpoint.requests };
}

describe('model settings applied at the run boundary (R72)', () => {
  it('sends thinkingLevel high to a reasoning model as the reasoning option', async () => {
    const { host, send, requests } = await hostOnEndpoint();
    const outcome = await send({ ...inherit, model: 'test/thinker', thinkingLevel: 'high' });
    expect(outcome).toMatchObject({ status: 'succeeded', model: 'test/thinker' });
    expect(requests.at(-1)).toMatchObject({ model: 'thinker', reasoning_effort: 'high' });
    host.dispose();
  });

  it('goes back to the host’s model and no reasoning on the next run with inherited settings', async () => {
    const { host, send, requests } = await hostOnEndpoint();
    await send({ ...inherit, model: 'test/thinker', thinkingLevel: 'high' });
    const outcome = await send(inherit);
    expect(outcome.model).toBe('test/plain');
    expect(requests.at(-1)).toMatchObject({ model: 'plain' });
    expect(requests.at(-1)).not.toHaveProperty('reasoning_effort');
    host.dispose();
  });

  it('offers the model only the tools of tools.enabled', async () => {
    const { host, send, requests } = await hostOnEndpoint();
    await send({ ...inherit, tools: ['read', 'grep'] });
    expect(toolNames(requests.at(-1)).sort()).toEqual(['grep', 'read']);
    await send(inherit);
    expect(toolNames(requests.at(-1)).length).toBeGreaterThan(2);
    host.dispose();
  });

  it('fails the run with not_found and a did-you-mean for an unknown model, before any request', async () => {
    const { host, send, requests } = await hostOnEndpoint();
    const outcome = await send({ ...inherit, model: 'test/thinkr' });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('not_found');
    expect(outcome.error?.message).toContain('Did you mean test/thinker');
    expect(requests).toHaveLength(0);
    host.dispose();
  });

  it('refuses an unknown tool name in tools.enabled', async () => {
    const { host, send } = await hostOnEndpoint();
    const outcome = await send({ ...inherit, tools: ['read', 'bash'] });
    expect(outcome.error).toMatchObject({ code: 'invalid_request' });
    expect(outcome.error?.message).toContain('bash');
    host.dispose();
  });
});
