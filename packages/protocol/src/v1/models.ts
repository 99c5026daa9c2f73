import { z } from 'zod';

/**
 * Where Pi finds a provider's credentials: `environment` (a variable), `auth-file` (Pi's
 * `auth.json`, an API key), `oauth` (Pi's `auth.json`, a login), `models-json` (a key or command in
 * Pi's `models.json`), `runtime` (set by the embedding program), `fallback` (Pi's own fallback).
 */
export const credentialSourceSchema = z.enum([
  'environment',
  'auth-file',
  'oauth',
  'models-json',
  'runtime',
  'fallback',
]);

/** One model Pi knows, as `models.list` reports it. Contract: never carries a secret. */
export const modelInfoSchema = z.looseObject({
  id: z.string().describe('`provider/id`, as `model.id` and `repa run --model` take it.'),
  provider: z.string().describe("Pi's provider id."),
  name: z.string().describe('Display name.'),
  contextWindow: z.number().nonnegative().describe('Context window in tokens.'),
  reasoning: z.boolean().describe('Whether the model supports thinking levels above `off`.'),
  credentials: z
    .boolean()
    .describe('Whether Pi has credentials for its provider (the model can be used).'),
  credentialSource: credentialSourceSchema
    .optional()
    .describe('Where those credentials come from.'),
  credentialVariable: z
    .string()
    .optional()
    .describe("The environment variable's name, for `environment` (never its value)."),
  default: z
    .boolean()
    .describe("True for the model a run uses when no level sets `model.id` (the daemon's model)."),
});

export type { CredentialSource, ModelInfo } from './wire-types.generated.js';
