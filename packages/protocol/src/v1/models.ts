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
/** Where Pi finds a provider's credentials. */
export type CredentialSource = z.infer<typeof credentialSourceSchema>;

/** One model Pi knows, as `models.list` reports it. Contract: never carries a secret. */
export const modelInfoSchema = z.looseObject({
  /** `provider/id`, as `model.id` and `repa run --model` take it. */
  id: z.string().describe('`provider/id`, as `model.id` and `repa run --model` take it.'),
  /** Pi's provider id. */
  provider: z.string().describe("Pi's provider id."),
  /** Display name. */
  name: z.string().describe('Display name.'),
  /** Context window in tokens. */
  contextWindow: z.number().nonnegative().describe('Context window in tokens.'),
  /** Whether the model supports thinking levels above `off`. */
  reasoning: z.boolean().describe('Whether the model supports thinking levels above `off`.'),
  /** Whether Pi has credentials for its provider (the model can be used). */
  credentials: z
    .boolean()
    .describe('Whether Pi has credentials for its provider (the model can be used).'),
  /** Where those credentials come from. */
  credentialSource: credentialSourceSchema
    .optional()
    .describe('Where those credentials come from.'),
  /** The environment variable's name, for `environment` (never its value). */
  credentialVariable: z
    .string()
    .optional()
    .describe("The environment variable's name, for `environment` (never its value)."),
  /** True for the model a run uses when no level sets `model.id` (the daemon's model). */
  default: z
    .boolean()
    .describe("True for the model a run uses when no level sets `model.id` (the daemon's model)."),
});
/** One model Pi knows. */
export interface ModelInfo {
  /** `provider/id`, as `model.id` and `repa run --model` take it. */
  id: string;
  /** Pi's provider id. */
  provider: string;
  /** Display name. */
  name: string;
  /** Context window in tokens. */
  contextWindow: number;
  /** Whether the model supports thinking levels above `off`. */
  reasoning: boolean;
  /** Whether Pi has credentials for its provider (the model can be used). */
  credentials: boolean;
  /** Where those credentials come from. */
  credentialSource?: CredentialSource | undefined;
  /** The environment variable's name, for `environment` (never its value). */
  credentialVariable?: string | undefined;
  /** True for the model a run uses when no level sets `model.id` (the daemon's model). */
  default: boolean;
  /** Members a newer server may add. */
  [member: string]: unknown;
}
