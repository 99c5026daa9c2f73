import { z } from 'zod';
import { idSchema, spaceRootSchema } from '../common.js';
import { loginTypeSchema } from '../login.js';
import { method } from '../method.js';
import { modelDecisionSchema } from '../models.js';

/** The `login.*` methods. */
export const loginMethods = {
  'login.start': method({
    description:
      "Signs in to a provider through Pi's own login (API key or OAuth), telling its steps as `login.progress` to this connection; Pi stores the credential in its `auth.json`, and the next run uses it (no restart). An empty key is refused and nothing is stored; a cancelled or timed-out login stores nothing.",
    params: () =>
      z.strictObject({
        provider: z.string().min(1).describe("Pi's provider id, e.g. `anthropic`."),
        type: loginTypeSchema.describe(
          "`api_key` (Pi asks for the key) or `oauth` (Pi's sign-in flow).",
        ),
        loginId: idSchema.describe(
          'Names this login in `login.progress` and `login.answer`; chosen by the client.',
        ),
        space: spaceRootSchema
          .optional()
          .describe("A space: `next` tells the model that space's next run uses."),
      }),
    result: () =>
      z.looseObject({
        connection: z
          .string()
          .describe(
            'The connection now configured: provider and credential source, e.g. `anthropic:auth-file`.',
          ),
        next: modelDecisionSchema
          .optional()
          .describe('The model the next run uses now (of `space`, else with no space setting).'),
        environmentVariable: z
          .string()
          .optional()
          .describe(
            "A key variable of this provider set in the daemon's environment (read when it started): the stored key now takes precedence over it.",
          ),
      }),
  }),
  'login.cancel': method({
    description:
      'Cancels a running login (a sign-in the learner closed): its waiting prompt ends, `login.start` fails with `cancelled`, and nothing is stored. Closing the connection cancels its logins too.',
    params: () =>
      z.strictObject({
        loginId: idSchema.describe('The login.'),
      }),
    result: () =>
      z.looseObject({
        cancelled: z
          .boolean()
          .describe('False when no such login is running (finished, or never started).'),
      }),
  }),
  'login.logout': method({
    description:
      "Removes Pi's stored credential of a provider through Pi (its `auth.json` entry); the next run no longer uses it.",
    params: () =>
      z.strictObject({
        provider: z.string().min(1).describe("Pi's provider id, e.g. `anthropic`."),
        space: spaceRootSchema
          .optional()
          .describe("A space: `next` tells the model that space's next run uses."),
      }),
    result: () =>
      z.looseObject({
        removed: z.boolean().describe('False when Pi had no stored credential for the provider.'),
        connection: z
          .string()
          .optional()
          .describe(
            'The connection the provider still has (e.g. `anthropic:environment`), when it has one.',
          ),
        next: modelDecisionSchema
          .optional()
          .describe('The model the next run uses now (of `space`, else with no space setting).'),
      }),
  }),
  'login.answer': method({
    description: 'Answers a `prompt` step of a running login (the key, a code or a choice).',
    params: () =>
      z.strictObject({
        loginId: idSchema.describe('The login.'),
        promptId: idSchema.describe('The prompt being answered.'),
        value: z.string().describe("The answer (a `select` prompt takes the option's `id`)."),
      }),
    result: () =>
      z.looseObject({
        accepted: z
          .boolean()
          .describe('False when no such prompt is waiting (answered, cancelled or unknown).'),
      }),
  }),
} as const;
