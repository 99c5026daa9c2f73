import { z } from 'zod';
import { idSchema } from './common.js';

/** How `login.start` signs in: Pi's API-key prompt or Pi's OAuth flow. */
export const loginTypeSchema = z.enum(['api_key', 'oauth']);
/** How `login.start` signs in. */
export type LoginType = z.infer<typeof loginTypeSchema>;

/** One choice of a `select` prompt. */
export const loginOptionSchema = z.looseObject({
  /** What `login.answer` sends back. */
  id: z.string().describe('What `login.answer` sends back.'),
  /** Shown to people. */
  label: z.string().describe('Shown to people.'),
});

/**
 * One step of a login as Pi reports it: `info`, `auth_url` (open `url`), `device_code` (enter
 * `userCode` at `url`), `progress`, or `prompt` (answer `promptId` with `login.answer`).
 */
export const loginProgressSchema = z.looseObject({
  /** The login (as `login.start` named it). */
  loginId: idSchema.describe('The login (as `login.start` named it).'),
  /** `info`, `auth_url`, `device_code`, `progress` or `prompt`. */
  kind: z
    .enum(['info', 'auth_url', 'device_code', 'progress', 'prompt'])
    .describe('`info`, `auth_url`, `device_code`, `progress` or `prompt`.'),
  /** One line for people. */
  message: z.string().describe('One line for people.'),
  /** The address to open, for `auth_url` and `device_code`. */
  url: z.string().optional().describe('The address to open, for `auth_url` and `device_code`.'),
  /** The code to enter at `url`, for `device_code`. */
  userCode: z.string().optional().describe('The code to enter at `url`, for `device_code`.'),
  /** The prompt to answer with `login.answer`, for `prompt`. */
  promptId: idSchema.optional().describe('The prompt to answer with `login.answer`, for `prompt`.'),
  /** What the prompt asks for: `text`, `secret` (do not echo), `select` or `manual_code`. */
  promptType: z
    .enum(['text', 'secret', 'select', 'manual_code'])
    .optional()
    .describe(
      'What the prompt asks for: `text`, `secret` (do not echo), `select` or `manual_code`.',
    ),
  /** The choices of a `select` prompt. */
  options: z.array(loginOptionSchema).optional().describe('The choices of a `select` prompt.'),
});
/** One step of a login as Pi reports it. */
export interface LoginProgress {
  /** The login (as `login.start` named it). */
  loginId: string;
  /** `info`, `auth_url`, `device_code`, `progress` or `prompt`. */
  kind: 'info' | 'auth_url' | 'device_code' | 'progress' | 'prompt';
  /** One line for people. */
  message: string;
  /** The address to open, for `auth_url` and `device_code`. */
  url?: string | undefined;
  /** The code to enter at `url`, for `device_code`. */
  userCode?: string | undefined;
  /** The prompt to answer with `login.answer`, for `prompt`. */
  promptId?: string | undefined;
  /** What the prompt asks for: `text`, `secret` (do not echo), `select` or `manual_code`. */
  promptType?: 'text' | 'secret' | 'select' | 'manual_code' | undefined;
  /** The choices of a `select` prompt. */
  options?:
    | {
        /** What `login.answer` sends back. */
        id: string;
        /** Shown to people. */
        label: string;
        /** Members a newer server may add. */
        [member: string]: unknown;
      }[]
    | undefined;
  /** Members a newer server may add. */
  [member: string]: unknown;
}
