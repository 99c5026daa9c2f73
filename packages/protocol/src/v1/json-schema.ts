import { z } from 'zod';
import { wireErrorSchema } from '../errors/repa-error.js';
import { PROTOCOL_VERSION } from './common.js';
import { v1Methods, v1Notifications } from './methods.js';

/** A JSON Schema document. */
type JsonSchema = Record<string, unknown>;

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io }) as JsonSchema;

/** JSON Schemas (draft 2020-12) of every v1 message, for clients in other languages. */
export interface V1JsonSchemas {
  /** Always `v1`. */
  protocolVersion: typeof PROTOCOL_VERSION;
  /** Params and result of every request method. */
  methods: Record<string, { params: JsonSchema; result: JsonSchema }>;
  /** Params of every notification. */
  notifications: Record<string, JsonSchema>;
  /** The Repa error carried in a JSON-RPC error's `data`. */
  error: JsonSchema;
}

/** Generates the JSON Schemas of every v1 message from the zod schemas. */
export function v1JsonSchemas(): V1JsonSchemas {
  const methods: V1JsonSchemas['methods'] = {};
  for (const [name, { params, result }] of Object.entries(v1Methods)) {
    methods[name] = {
      params: toJsonSchema(params, 'input'),
      result: toJsonSchema(result, 'output'),
    };
  }
  const notifications: V1JsonSchemas['notifications'] = {};
  for (const [name, params] of Object.entries(v1Notifications)) {
    notifications[name] = toJsonSchema(params, 'output');
  }
  return {
    protocolVersion: PROTOCOL_VERSION,
    methods,
    notifications,
    error: toJsonSchema(wireErrorSchema, 'output'),
  };
}
