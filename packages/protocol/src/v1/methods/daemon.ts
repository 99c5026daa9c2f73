import { z } from 'zod';
import { PROTOCOL_VERSION, spaceRootSchema, timestampSchema } from '../common.js';
import { wireErrorSchema } from '../errors/repa-error.js';
import { method } from '../method.js';
import { credentialSourceSchema, modelDecisionSchema } from '../models.js';
import { resourceDiagnosticSchema } from '../packages.js';

/** The methods of the connection and the daemon itself: `initialize`, `doctor`. */
export const daemonMethods = {
  initialize: method({
    description: 'Negotiates the protocol version; the first call on every connection.',
    params: () =>
      z.strictObject({
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
    result: () =>
      z.looseObject({
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
              .describe(
                "`provider/id` the daemon was started with (`--model`): the default of `model.id`; absent: each run's model is decided when it is accepted.",
              ),
          })
          .describe("The server's name and version, and the model it was started with, if any."),
      }),
  }),
  doctor: method({
    description:
      "Pi's configuration as the daemon sees it now, the model a space's next run uses and why, and the sandbox, for diagnosis (never secrets).",
    params: () =>
      z.strictObject({
        space: spaceRootSchema
          .optional()
          .describe('A space: `models.next` tells the model its next run uses and why.'),
      }),
    result: () =>
      z.looseObject({
        models: z
          .looseObject({
            default: z
              .string()
              .describe(
                "`provider/id` of the model a run uses now when no level sets `model.id`: the daemon's `--model`, else Pi's own default among the models with credentials, else `repa-offline`.",
              ),
            offline: z
              .boolean()
              .describe('True when that is the offline responder (no model has credentials).'),
            available: z
              .array(z.string())
              .describe(
                '`provider/id` of every model Pi has credentials for now (`repa-offline` not counted).',
              ),
            credentials: z
              .array(
                z.looseObject({
                  provider: z.string().describe("Pi's provider id."),
                  credentialSource: credentialSourceSchema.describe(
                    'Where Pi finds its credentials.',
                  ),
                  credentialVariable: z
                    .string()
                    .optional()
                    .describe("The environment variable's name, for `environment`."),
                  models: z
                    .number()
                    .int()
                    .nonnegative()
                    .describe('How many of its models can be used.'),
                }),
              )
              .optional()
              .describe(
                'Each provider with credentials and where they come from (never the keys).',
              ),
            daemonModel: z
              .string()
              .optional()
              .describe("The daemon's `--model`, when it was started with one."),
            next: modelDecisionSchema
              .optional()
              .describe("With `space`: the model the space's next run uses, and why."),
            configError: wireErrorSchema
              .optional()
              .describe(
                "Part of Pi's configuration that could not be read (e.g. `models.json`: the file and the parse error); the other models keep working.",
              ),
            error: wireErrorSchema
              .optional()
              .describe(
                "Why Pi's configuration could not be read at all (then `default` is empty).",
              ),
          })
          .describe(
            'The model runs use when nothing chooses one, the models with credentials (never the keys) and, with `space`, its next run.',
          ),
        startedAt: timestampSchema
          .optional()
          .describe(
            "When the daemon started (absent when no daemon answers): environment variables were read then; Pi's files are read again when they change.",
          ),
        pi: z
          .looseObject({
            agentDir: z.string().describe("Pi's agent directory."),
            exists: z.boolean().describe('Whether it exists.'),
            authJson: z.boolean().describe('Whether `auth.json` exists in it.'),
            modelsJson: z.boolean().describe('Whether `models.json` exists in it.'),
            changedAt: z
              .looseObject({
                authJson: timestampSchema.optional().describe('When `auth.json` last changed.'),
                modelsJson: timestampSchema.optional().describe('When `models.json` last changed.'),
                settingsJson: timestampSchema
                  .optional()
                  .describe("When Pi's `settings.json` last changed."),
              })
              .optional()
              .describe("When Pi's files last changed (absent for a file that does not exist)."),
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
        packages: z
          .looseObject({
            configured: z
              .number()
              .int()
              .nonnegative()
              .describe("How many Pi packages the learner's Pi settings list."),
            diagnostics: z
              .array(resourceDiagnosticSchema)
              .describe("Pi's loading diagnostics of them, refused extensions included."),
            error: wireErrorSchema.optional().describe('Why they could not be listed, if not.'),
          })
          .optional()
          .describe("The application level's Pi packages (absent from older servers)."),
      }),
  }),
} as const;
