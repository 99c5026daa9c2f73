import { z } from 'zod';
import { spaceRootSchema } from '../common.js';
import { method } from '../method.js';
import {
  configuredPackageSchema,
  packageLevelSchema,
  packageResourceSchema,
  resourceDiagnosticSchema,
} from '../packages.js';

const level = packageLevelSchema
  .optional()
  .describe(
    "`application` (default: the learner's own Pi settings) or `space` (the space's `.pi/settings.json`; the space must be trusted).",
  );
const source = z
  .string()
  .min(1)
  .describe(
    'A Pi package source: an absolute local folder, `npm:name[@version]` or a git URL (`git:`, `https:`, `ssh:`); npm and git need Pi to be online.',
  );

/** What `packages.add` and `packages.remove` act on: a source at a level. */
const packageTarget = {
  source,
  level,
  space: spaceRootSchema.optional().describe('The space (required for level `space`).'),
};

/** The `packages.*` methods: Pi packages, through Pi's package manager (spec R75). */
export const packagesMethods = {
  'packages.list': method({
    description:
      "Lists the Pi packages configured for the application and, with `space`, for that space (only when it is trusted), with what a new session of that space loads from them and Pi's loading diagnostics.",
    params: () =>
      z.strictObject({
        space: spaceRootSchema
          .optional()
          .describe('A space: its own packages too, and what its sessions load.'),
      }),
    result: () =>
      z.looseObject({
        packages: z
          .array(configuredPackageSchema)
          .describe('The configured packages, application first.'),
        resources: z
          .array(packageResourceSchema)
          .describe(
            'What a new session loads from packages and Pi folders (extensions, tools, skills, prompt templates).',
          ),
        diagnostics: z
          .array(resourceDiagnosticSchema)
          .describe("Pi's loading diagnostics, including extensions Repa refused."),
      }),
  }),
  'packages.add': method({
    description:
      "Installs a Pi package through Pi's package manager and adds it to the level's Pi settings; each session's next run loads it. npm and git sources are refused with `offline` while Pi is kept offline.",
    params: () => z.strictObject(packageTarget),
    result: () =>
      z.looseObject({
        package: configuredPackageSchema.describe('The package as now configured.'),
        added: z.boolean().describe('False when the settings already listed it.'),
      }),
  }),
  'packages.remove': method({
    description:
      "Removes a Pi package through Pi's package manager (and from the level's Pi settings). A run under way finishes with what its session loaded; each session's next run starts without it.",
    params: () => z.strictObject(packageTarget),
    result: () =>
      z.looseObject({
        removed: z.boolean().describe('False when the settings did not list it.'),
        activeRuns: z
          .number()
          .int()
          .nonnegative()
          .describe(
            "Runs under way now, which finish with what their session loaded; every session's next run loads without the package.",
          ),
      }),
  }),
} as const;
