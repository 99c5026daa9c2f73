import { z } from 'zod';
import { idSchema, spaceRootSchema } from '../common.js';
import { wireErrorSchema } from '../errors/repa-error.js';
import { method } from '../method.js';
import { modelDecisionSchema, modelInfoSchema } from '../models.js';
import { spaceParam } from './params.js';

/** The `models.*` methods. */
export const modelsMethods = {
  'models.list': method({
    description:
      'The models Pi knows (and `repa-offline`), with where their credentials come from (never the secrets).',
    params: () =>
      z.strictObject({
        all: z
          .boolean()
          .optional()
          .describe('Also list the models without credentials. Default false.'),
        space: spaceRootSchema
          .optional()
          .describe('A space: `next` tells the model its next run uses (nothing is created).'),
        sessionId: idSchema
          .optional()
          .describe('With `space`: a session of it, whose settings level counts too for `next`.'),
      }),
    result: () =>
      z.looseObject({
        models: z
          .array(modelInfoSchema)
          .describe(
            'The models, credentialed first (`repa-offline` last of them), then by `provider/id`.',
          ),
        default: z
          .string()
          .describe(
            '`provider/id` of the model a run uses now when no level sets `model.id` (`repa-offline` for the local responder).',
          ),
        next: modelDecisionSchema
          .optional()
          .describe("With `space`: the model the space's next run uses, and why."),
        error: wireErrorSchema
          .optional()
          .describe(
            "Why part of Pi's configuration could not be read (e.g. `models.json` does not parse: the file and the error); the other models are listed.",
          ),
      }),
  }),
  'models.next': method({
    description:
      "The model and thinking level a space's next run uses and why, decided as `run.submit` decides it.",
    params: () =>
      z.strictObject({
        space: spaceParam,
        sessionId: idSchema
          .optional()
          .describe('A session of the space, whose settings level counts too.'),
      }),
    result: () =>
      z.looseObject({
        choice: modelDecisionSchema.describe('The model, its thinking level and why.'),
      }),
  }),
} as const;
