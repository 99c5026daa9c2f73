// The openness policy, descriptions and precision of schema/v1.json.
import { describe, expect, it } from 'vitest';
import { REPA_ERROR_CODES } from './errors/repa-error.js';
import { v1JsonSchemas } from './json-schema.js';
import { v1Methods } from './methods.js';
import { SETTING_KEYS } from './setting-items.js';

type Json = Record<string, unknown>;
const doc = v1JsonSchemas() as unknown as Json & {
  methods: Record<string, { description: string; params: Json; result: Json }>;
  notifications: Record<string, Json>;
  $defs: Record<string, Json>;
};

/** Every object schema (one with `properties`) in `value`, with its JSON pointer; `if` skipped. */
function objectSchemas(value: unknown, pointer = ''): [string, Json][] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((item, i) => objectSchemas(item, `${pointer}/${i}`));
  const node = value as Json;
  const own: [string, Json][] = 'properties' in node ? [[pointer, node]] : [];
  return own.concat(
    Object.entries(node)
      .filter(([key]) => key !== 'if')
      .flatMap(([key, child]) => objectSchemas(child, `${pointer}/${key}`)),
  );
}

describe('schema/v1.json as a contract', () => {
  it('closes every object a client sends', () => {
    for (const [name, { params }] of Object.entries(doc.methods)) {
      for (const [pointer, node] of objectSchemas(params)) {
        expect(node.additionalProperties, `${name} params${pointer}`).toBe(false);
      }
    }
  });

  it('leaves every object the server sends open', () => {
    const sent = [
      ...Object.entries(doc.methods).map(([name, { result }]) => [name, result] as const),
      ...Object.entries(doc.notifications),
      ...Object.entries(doc.$defs).filter(([name]) => name !== 'RunStatus'),
    ];
    for (const [name, schema] of sent) {
      for (const [pointer, node] of objectSchemas(schema)) {
        expect(node.additionalProperties, `${name}${pointer}`).not.toBe(false);
      }
    }
  });

  it('describes every method and every member', () => {
    for (const [name, method] of Object.entries(doc.methods)) {
      expect(method.description, name).toMatch(/\w/);
      expect(method.description).toBe(v1Methods[name as keyof typeof v1Methods].description);
    }
    for (const [pointer, node] of objectSchemas(doc)) {
      for (const [member, schema] of Object.entries(node.properties as Record<string, Json>)) {
        if (member === 'jsonrpc' || (member === 'type' && 'const' in schema)) continue;
        expect(schema.description, `${pointer}/properties/${member}`).toMatch(/\w/);
      }
    }
  });

  it('references shared shapes once from $defs', () => {
    expect(Object.keys(doc.$defs)).toEqual(
      expect.arrayContaining(['Error', 'PromptSection', 'Run', 'SaveReceipt', 'RunEvent']),
    );
    const text = JSON.stringify(doc.methods);
    expect(text).toContain('"$ref":"#/$defs/Run"');
    expect(text).not.toContain('"promptSections"');
  });

  it('types settings values per key and states which level needs which field', () => {
    const params = doc.methods['settings.set']?.params as { oneOf: Json[]; allOf: Json[] };
    const keys = params.oneOf.map(
      (branch) => (branch.properties as Json & { key: Json }).key.const,
    );
    expect(keys).toEqual(SETTING_KEYS);
    expect(keys).toHaveLength(28);
    expect(keys).toEqual(
      expect.arrayContaining([
        'model.id',
        'model.thinkingLevel',
        'tools.enabled',
        'tools.bash',
        'tools.bashTimeoutSeconds',
        'tools.edits',
        'study.mode',
        'daemon.idleMinutes',
        'history.maxMegabytes',
      ]),
    );
    expect(JSON.stringify(params.allOf)).toContain(
      '"then":{"type":"object","required":["space","sessionId"]}',
    );
    const get = doc.methods['settings.get']?.params as Json;
    expect(get.dependentRequired).toEqual({ sessionId: ['space'] });
  });

  it('lists every stable error code with a description and marks timestamps as date-time', () => {
    const error = doc.$defs.Error as { properties: { code: { oneOf: Json[] } } };
    expect(error.properties.code.oneOf.map((entry) => entry.const)).toEqual(REPA_ERROR_CODES);
    for (const entry of error.properties.code.oneOf) expect(entry.description).toMatch(/\w/);
    const run = doc.$defs.Run as { properties: Record<string, Json> };
    expect(run.properties.acceptedAt?.format).toBe('date-time');
  });
});

describe('client input at run time', () => {
  it('refuses unknown members and a settings value of the wrong type', () => {
    expect(v1Methods['run.get'].params.safeParse({ runId: 'r1', runID: 'r1' }).success).toBe(false);
    const set = v1Methods['settings.set'].params;
    const base = { level: 'application', key: 'prompts.fileChanges' };
    expect(set.safeParse({ ...base, value: 'diff' }).success).toBe(true);
    expect(set.safeParse({ ...base, value: 'sometimes' }).success).toBe(false);
    const thinking = { level: 'application', key: 'model.thinkingLevel' };
    expect(set.safeParse({ ...thinking, value: 'high' }).success).toBe(true);
    expect(set.safeParse({ ...thinking, value: 'extreme' }).success).toBe(false);
    const tools = { level: 'application', key: 'tools.enabled' };
    expect(set.safeParse({ ...tools, value: ['read', 'grep'] }).success).toBe(true);
    expect(set.safeParse({ ...tools, value: 'read' }).success).toBe(false);
    const unknown = set.safeParse({ level: 'application', key: 'prompts.nope', value: 1 });
    expect(unknown.error?.issues[0]?.message).toContain('Unknown setting');
  });
});
