import { z } from 'zod';
import { idSchema, spaceRootSchema } from '../common.js';
import { runOverridesSchema } from '../runs.js';

// The members several methods' params and results share, each described once.

/** A method's `space`: the space it works in. */
export const spaceParam = spaceRootSchema.describe('The space root (an absolute path).');

/** A method's members naming a session of a space. */
export const sessionParams = {
  space: spaceParam,
  sessionId: idSchema.describe('The session.'),
};

/** The idempotency key of a method that starts a run. */
export const requestIdParam = idSchema.describe(
  'Client-chosen idempotency key: resubmitting it returns the original run.',
);

/** The model settings of a method that starts a run, for that run. */
export const overridesParam = runOverridesSchema
  .optional()
  .describe('Model settings for this run only, over every settings level.');

/** A run-starting method's answer to a request id it accepted before. */
export const resubmittedResult = z
  .boolean()
  .describe('True when this request id was already accepted and the original run is returned.');
