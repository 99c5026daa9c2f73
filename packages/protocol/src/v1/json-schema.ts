import { z } from 'zod';
import { PROTOCOL_VERSION } from './common.js';
import { wireErrorSchema } from './errors/repa-error.js';
import { JSON_RPC_ERROR_CODES } from './json-rpc.js';
import { v1Methods, v1Notifications } from './methods.js';

/** A JSON Schema document. */
type JsonSchema = Record<string, unknown>;

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** JSON Schemas (draft 2020-12) of every v1 message, for clients in other languages. */
export interface V1JsonSchemas {
  /** The JSON Schema dialect of every schema in the document. */
  $schema: typeof DRAFT;
  /** Always `v1`. */
  protocolVersion: typeof PROTOCOL_VERSION;
  /** What the document is and its openness policy. */
  description: string;
  /** Params and result of every request method, with the method's description. */
  methods: Record<string, { description: string; params: JsonSchema; result: JsonSchema }>;
  /** Params of every notification. */
  notifications: Record<string, JsonSchema>;
  /** The Repa error carried in a JSON-RPC error's `data`. */
  error: JsonSchema;
  /** The JSON-RPC 2.0 envelopes: request, notification, success and error response. */
  envelope: Record<string, JsonSchema>;
  /** Shared shapes, referenced as `#/$defs/<name>` from every schema above. */
  $defs: Record<string, JsonSchema>;
}

const DESCRIPTION =
  'Repa protocol v1: JSON-RPC 2.0 over newline-delimited JSON. What clients send (params, ' +
  'envelopes) is closed: unknown members are refused. What the server sends (results, ' +
  'notifications, errors) is open at every level: clients must ignore members they do not know. ' +
  'References `#/$defs/<name>` point into this document.';

/** Generates the JSON Schemas of every v1 message from the zod schemas. */
export function v1JsonSchemas(): V1JsonSchemas {
  const defs: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const { $defs, $schema: _dialect, ...json } = z.toJSONSchema(schema, { io }) as JsonSchema;
    const policy = io === 'input' ? close : open;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const shaped = policy(def);
      const known = defs[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(shaped)) {
        throw new Error(`The JSON Schema $defs entry ${name} differs between messages.`);
      }
      defs[name] = shaped;
    }
    return policy(json);
  };
  const methods: V1JsonSchemas['methods'] = {};
  for (const [name, { description, params, result }] of Object.entries(v1Methods)) {
    methods[name] = {
      description,
      params: convert(params, 'input'),
      result: convert(result, 'output'),
    };
  }
  const notifications: V1JsonSchemas['notifications'] = {};
  for (const [name, params] of Object.entries(v1Notifications)) {
    notifications[name] = convert(params, 'output');
  }
  const error = convert(wireErrorSchema, 'output');
  return {
    $schema: DRAFT,
    protocolVersion: PROTOCOL_VERSION,
    description: DESCRIPTION,
    methods,
    notifications,
    error,
    envelope: envelopeSchemas(),
    $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
  };
}

const rpcId = {
  description: 'The request id, echoed in its response.',
  type: ['string', 'integer'],
};

/** The JSON-RPC 2.0 envelopes; the `params` and `result` members are given per method above. */
function envelopeSchemas(): Record<string, JsonSchema> {
  const numeric = Object.entries(JSON_RPC_ERROR_CODES);
  const request = {
    description: 'A request (client → server); answered by exactly one response.',
    type: 'object',
    properties: {
      jsonrpc: { const: '2.0' },
      id: rpcId,
      method: { type: 'string', minLength: 1, description: 'A key of `methods`.' },
      params: {
        type: 'object',
        description: "The method's params (`methods[method].params`); omitted means `{}`.",
      },
    },
    required: ['jsonrpc', 'id', 'method'],
    additionalProperties: false,
  };
  return {
    request,
    batch: {
      description:
        'A batch of requests in one frame (JSON-RPC 2.0 §6): answered by one array of their responses.',
      type: 'array',
      minItems: 1,
      items: request,
    },
    notification: {
      description: 'A notification (server → client): never answered.',
      type: 'object',
      properties: {
        jsonrpc: { const: '2.0' },
        method: { type: 'string', description: 'A key of `notifications`; ignore unknown ones.' },
        params: { type: 'object', description: "The notification's params." },
      },
      required: ['jsonrpc', 'method', 'params'],
    },
    success: {
      description: 'A successful response (server → client).',
      type: 'object',
      properties: {
        jsonrpc: { const: '2.0' },
        id: rpcId,
        result: { type: 'object', description: "The method's result (`methods[method].result`)." },
      },
      required: ['jsonrpc', 'id', 'result'],
    },
    error: {
      description: 'An error response (server → client); `id` is null when the request had none.',
      type: 'object',
      properties: {
        jsonrpc: { const: '2.0' },
        id: { ...rpcId, type: ['string', 'integer', 'null'] },
        error: {
          description: 'The JSON-RPC error object; `data` is the Repa error.',
          type: 'object',
          properties: {
            code: {
              description: 'The JSON-RPC code; switch on `data.code` instead.',
              type: 'integer',
              oneOf: numeric.map(([name, code]) => ({ const: code, description: name })),
            },
            message: { type: 'string', description: 'The same text as `data.message`.' },
            data: { $ref: '#/$defs/Error', description: 'The Repa error; switch on its `code`.' },
          },
          required: ['code', 'message', 'data'],
        },
      },
      required: ['jsonrpc', 'id', 'error'],
    },
  };
}

/** Closed: every object the client sends refuses members it does not declare. */
function close(schema: JsonSchema): JsonSchema {
  return walk(schema, (node) =>
    'properties' in node && !('additionalProperties' in node)
      ? { ...node, additionalProperties: false }
      : node,
  );
}

/** Open: no object the server sends refuses members (zod closes plain objects on output). */
function open(schema: JsonSchema): JsonSchema {
  return walk(schema, (node) => {
    const extra = node.additionalProperties;
    const loose =
      extra === false ||
      (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0);
    if (!loose || !('properties' in node)) return node;
    const { additionalProperties: _dropped, ...rest } = node;
    return rest;
  });
}

/**
 * Rebuilds every object node of a schema bottom-up through `visit`; an `if` condition is kept
 * as written (closing it would make it false whenever other members are present).
 */
function walk(value: JsonSchema, visit: (node: JsonSchema) => JsonSchema): JsonSchema {
  const rebuilt: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    rebuilt[key] = key === 'if' ? child : walkValue(child, visit);
  }
  return visit(rebuilt);
}

function walkValue(value: unknown, visit: (node: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(value)) return value.map((item) => walkValue(item, visit));
  if (typeof value === 'object' && value !== null) return walk(value as JsonSchema, visit);
  return value;
}
