import { z } from 'zod';
import { idSchema } from '../common.js';
import { loginTypeSchema } from '../login.js';

/** The `login.*` methods. */
export const loginMethods = {
  'login.start': {
    description:
      "Signs in to a provider through Pi's own login (API key or OAuth), telling its steps as `login.progress` to this connection; Pi stores the credential in its `auth.json`.",
    params: z.strictObject({
      provider: z.string().min(1).describe("Pi's provider id, e.g. `anthropic`."),
      type: loginTypeSchema.describe(
        "`api_key` (Pi asks for the key) or `oauth` (Pi's sign-in flow).",
      ),
      loginId: idSchema.describe(
        'Names this login in `login.progress` and `login.answer`; chosen by the client.',
      ),
    }),
    result: z.looseObject({
      connection: z
        .string()
        .describe(
          'The connection now configured: provider and credential source, e.g. `anthropic:auth-file`.',
        ),
    }),
  },
  'login.answer': {
    description: 'Answers a `prompt` step of a running login (the key, a code or a choice).',
    params: z.strictObject({
      loginId: idSchema.describe('The login.'),
      promptId: idSchema.describe('The prompt being answered.'),
      value: z.string().describe("The answer (a `select` prompt takes the option's `id`)."),
    }),
    result: z.looseObject({
      accepted: z
        .boolean()
        .describe('False when no such prompt is waiting (answered, cancelled or unknown).'),
    }),
  },
} as const;
