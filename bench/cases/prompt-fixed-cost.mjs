// Benchmark — prompt prefix, its fixed cost: Repa's system prompt and tool schemas per request
// against bare Pi's (its default prompt and its own equivalent tools) on the same model and
// endpoint, as the endpoint received them (bench/cases/prompt-prefix.mjs runs both).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCredentialStore } from '@earendil-works/pi-ai';
import {
  createAgentSession,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent';
import { bareResourceLoader } from '@repa/context';
import { metricRows } from '../lib/report.mjs';

/** Drops Anthropic's cache breakpoints: markers on the request, not part of the cached prefix. */
export function withoutCacheMarks(value) {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, inner]) => [key, withoutCacheMarks(inner)]),
  );
}

/** Pi's own tools for what Repa's content tools do (Repa's `apply_patch` has none). */
const PI_TOOLS = ['read', 'edit', 'write', 'ls', 'find', 'grep'];

/**
 * The first request of bare Pi (its default system prompt, its six equivalent tools, no extension,
 * skill or context file) on the same model (`model`, `provider/id`) and endpoint, as the endpoint
 * received it; the endpoint answers `reply`.
 */
export async function barePiRequest(base, agentDir, endpoint, { model: modelName, reply }) {
  const cwd = join(base, 'bare-space');
  mkdirSync(cwd, { recursive: true });
  const modelRuntime = await ModelRuntime.create({
    credentials: new InMemoryCredentialStore(),
    modelsPath: join(agentDir, 'models.json'),
    allowModelNetwork: false,
    refreshOnCreate: false,
  });
  await modelRuntime.refresh({ allowNetwork: false });
  const [provider, id] = modelName.split('/');
  const model = modelRuntime.getModel(provider, id);
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false } });
  const resourceLoader = await bareResourceLoader({ cwd, agentDir, settingsManager });
  const { session: bare } = await createAgentSession({
    cwd,
    agentDir,
    model,
    thinkingLevel: 'off',
    modelRuntime,
    settingsManager,
    resourceLoader,
    sessionManager: SessionManager.inMemory(cwd),
    tools: PI_TOOLS,
  });
  const before = endpoint.requests.length;
  endpoint.replies = [reply];
  await bare.prompt('What do my notes on tides say?');
  bare.dispose();
  const request = endpoint.requests[before];
  if (request === undefined) throw new Error('bare Pi sent no request');
  return request;
}

/** Characters of the fixed part of a request: system prompt, tool schemas, and descriptions. */
function fixedPart(body) {
  const system = [body.system ?? []]
    .flat()
    .map((block) => (typeof block === 'string' ? block : block.text))
    .join('');
  const tools = withoutCacheMarks(body.tools ?? []);
  const described = (schema) =>
    schema === null || typeof schema !== 'object'
      ? 0
      : Object.entries(schema).reduce(
          (sum, [key, value]) =>
            sum +
            (key === 'description' && typeof value === 'string' ? value.length : described(value)),
          0,
        );
  return {
    system: system.length,
    tools: JSON.stringify(tools).length,
    descriptions: tools.reduce((sum, entry) => sum + described(entry), 0),
    names: tools.map((entry) => entry.name),
  };
}

/**
 * The fixed cost of a request: Repa's system prompt and tool schemas against bare Pi's default
 * prompt with Pi's equivalent tools, in tokens estimated as characters / 4 (no tokenizer in the
 * workspace; Pi estimates the same way).
 */
export function fixedCostRows(repaBody, piBody) {
  const repa = fixedPart(repaBody);
  const pi = fixedPart(piBody);
  const tokens = (part) => Math.round((part.system + part.tools) / 4);
  const metric = metricRows('prompt fixed cost');
  const row = (name, value, note, target = null) =>
    metric(name, value, 'tokens', target, { samples: 1, note });
  return [
    row(
      `Repa: system prompt + tool schemas per request (${repa.names.join(', ')})`,
      tokens(repa),
      `system ${repa.system} chars, tools ${repa.tools} chars (descriptions ${repa.descriptions}); characters / 4`,
    ),
    row(
      `bare Pi: default system prompt + its tools (${pi.names.join(', ')})`,
      tokens(pi),
      `system ${pi.system} chars, tools ${pi.tools} chars (descriptions ${pi.descriptions}); characters / 4`,
    ),
    row(
      'Repa minus bare Pi, per request',
      tokens(repa) - tokens(pi),
      `${(tokens(repa) / tokens(pi)).toFixed(2)}× bare Pi`,
    ),
  ];
}
