import { z } from 'zod';
import { modelInfoSchema } from '../models.js';

/** The `models.*` methods. */
export const modelsMethods = {
  'models.list': {
    description: 'The models Pi knows, with where their credentials come from (never the secrets).',
    params: z.strictObject({
      all: z
        .boolean()
        .optional()
        .describe('Also list the models without credentials. Default false.'),
    }),
    result: z.looseObject({
      models: z
        .array(modelInfoSchema)
        .describe('The models, credentialed first, then by `provider/id`.'),
      default: z
        .string()
        .describe(
          "`provider/id` of the daemon's model (`repa-offline` for the embedded responder).",
        ),
    }),
  },
} as const;
