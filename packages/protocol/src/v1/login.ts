import { z } from 'zod';
import { idSchema } from './common.js';

/** How `login.start` signs in: Pi's API-key prompt or Pi's OAuth flow. */
export const loginTypeSchema = z.enum(['api_key', 'oauth']);

/** One choice of a `select` prompt. */
export const loginOptionSchema = z.looseObject({
  id: z.string().describe('What `login.answer` sends back.'),
  label: z.string().describe('Shown to people.'),
});

/**
 * One step of a login as Pi reports it: `info`, `auth_url` (open `url`), `device_code` (enter
 * `userCode` at `url`), `progress`, or `prompt` (answer `promptId` with `login.answer`).
 */
export const loginProgressSchema = z.looseObject({
  loginId: idSchema.describe('The login (as `login.start` named it).'),
  kind: z
    .enum(['info', 'auth_url', 'device_code', 'progress', 'prompt'])
    .describe('`info`, `auth_url`, `device_code`, `progress` or `prompt`.'),
  message: z.string().describe('One line for people.'),
  url: z.string().optional().describe('The address to open, for `auth_url` and `device_code`.'),
  userCode: z.string().optional().describe('The code to enter at `url`, for `device_code`.'),
  promptId: idSchema.optional().describe('The prompt to answer with `login.answer`, for `prompt`.'),
  promptType: z
    .enum(['text', 'secret', 'select', 'manual_code'])
    .optional()
    .describe(
      'What the prompt asks for: `text`, `secret` (do not echo), `select` or `manual_code`.',
    ),
  options: z.array(loginOptionSchema).optional().describe('The choices of a `select` prompt.'),
});
