import { z } from 'zod';
import { wireErrorSchema } from '../../errors/repa-error.js';
import { PROTOCOL_VERSION } from '../common.js';

/** The methods of the connection and the daemon itself: `initialize`, `doctor`. */
export const daemonMethods = {
  initialize: {
    description: 'Negotiates the protocol version; the first call on every connection.',
    params: z.strictObject({
      protocolVersions: z
        .array(z.string())
        .min(1)
        .describe('Protocol versions the client speaks, most preferred first.'),
      client: z
        .strictObject({
          name: z.string().describe("The client's name."),
          version: z.string().describe("The client's version."),
        })
        .optional()
        .describe("The client's name and version, for logs."),
    }),
    result: z.looseObject({
      protocolVersion: z
        .literal(PROTOCOL_VERSION)
        .describe('The version chosen for this connection.'),
      server: z
        .object({
          name: z.string().describe("The server's name."),
          version: z.string().describe("The server's version."),
          model: z
            .string()
            .optional()
            .describe('`provider/id` of the model its runs use (`repa-offline` offline).'),
        })
        .describe(
          "The server's name and version, and the model its runs use (`repa-offline` offline).",
        ),
    }),
  },
  doctor: {
    description: "The daemon's model and Pi configuration, for diagnosis (never secrets).",
    params: z.strictObject({}),
    result: z.looseObject({
      models: z
        .looseObject({
          default: z
            .string()
            .describe(
              "`provider/id` of the daemon's model (`repa-offline` for the embedded responder).",
            ),
          offline: z.boolean().describe('True for the embedded offline responder.'),
          available: z
            .array(z.string())
            .describe('`provider/id` of every model with credentials (empty when offline).'),
          error: wireErrorSchema
            .optional()
            .describe("Why Pi's configuration could not be read (then `default` is empty)."),
        })
        .describe(
          "The model the daemon's runs use, and which ones have credentials (never the keys).",
        ),
      pi: z
        .looseObject({
          agentDir: z.string().describe("Pi's agent directory."),
          exists: z.boolean().describe('Whether it exists.'),
          authJson: z.boolean().describe('Whether `auth.json` exists in it.'),
          modelsJson: z.boolean().describe('Whether `models.json` exists in it.'),
          keyVariables: z
            .array(z.string())
            .describe('The key variables the daemon looked for (names only).'),
          keyVariablesSet: z
            .array(z.string())
            .describe("Those set in the daemon's environment (names only, never values)."),
        })
        .describe("Pi's configuration as the daemon sees it."),
      sandbox: z
        .looseObject({
          bwrap: z
            .string()
            .nullable()
            .describe("The `bwrap` on the daemon's `PATH`, or null when there is none."),
          ready: z
            .boolean()
            .describe('Whether a sandbox started (and, as root, a pids cgroup could be made).'),
          error: wireErrorSchema
            .optional()
            .describe('Why not, when not ready (`sandbox_unavailable`, with the fix).'),
        })
        .optional()
        .describe(
          "Whether the `bash` tool's sandbox starts where the daemon runs (absent from older servers).",
        ),
    }),
  },
} as const;
