import { z } from 'zod';
import { thinkingLevelSchema } from './settings.js';

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
    .describe(
      "True for the model a run uses now when no level sets `model.id` (the daemon's `--model`, else Pi's own default among the models with credentials, else `repa-offline`).",
    ),
  offline: z
    .boolean()
    .optional()
    .describe('True for `repa-offline`, the local responder (no language model, no key).'),
});

/**
 * Why a run uses its model: a settings level or a one-run override (`run`), the daemon's `--model`
 * (`daemon`), Pi's own default among the models with credentials now (`pi-default`), or the
 * offline responder because no model has credentials (`no-credentials`).
 */
export const modelSourceSchema = z.enum([
  'run',
  'session',
  'space',
  'application',
  'daemon',
  'pi-default',
  'no-credentials',
]);

/** Why a run uses its model, in the few words every client shows beside the model's name. */
export const MODEL_SOURCE_WORDS: Readonly<Record<z.infer<typeof modelSourceSchema>, string>> = {
  run: 'this run only',
  session: "this session's model.id",
  space: "this space's model.id",
  application: 'model.id of the application level',
  daemon: "the daemon's --model",
  'pi-default': "Pi's default among the models with credentials",
  'no-credentials': 'no model has credentials',
};

/**
 * The model and thinking level a run uses and why, decided as `run.submit` decides it (spec R71,
 * R72). Contract: never carries a secret.
 */
export const modelDecisionSchema = z.looseObject({
  model: z
    .string()
    .describe('`provider/id` of the model (`repa-offline` for the local responder).'),
  source: modelSourceSchema.describe('Why this model.'),
  thinkingLevel: thinkingLevelSchema.describe(
    'The thinking level the run uses, clamped to what the model supports.',
  ),
  thinkingSource: z
    .enum(['run', 'session', 'space', 'application', 'pi-default'])
    .describe("Where the thinking level comes from: a level, a one-run override, or Pi's default."),
  offline: z.boolean().describe('True for `repa-offline`, the local responder.'),
  credentials: z
    .boolean()
    .describe(
      'Whether Pi has credentials for the model now; false: a run on it is refused `auth_failed`.',
    ),
  connection: z
    .string()
    .optional()
    .describe(
      'The connection it would use: provider and credential source, e.g. `anthropic:auth-file`.',
    ),
});
