import { z } from 'zod';

/** Where a Pi package is configured: the learner's own Pi settings, or a space's `.pi/`. */
export const packageLevelSchema = z.enum(['application', 'space']);

/** One thing a Pi package (or the learner's own Pi folders) brings to a session (spec R75). */
export const packageResourceSchema = z
  .looseObject({
    kind: z
      .enum(['extension', 'tool', 'skill', 'prompt'])
      .describe(
        '`extension`, `tool` (registered by an extension), `skill` or `prompt` (template).',
      ),
    name: z
      .string()
      .describe("The tool, skill or prompt template's name; an extension's file path."),
    source: z
      .string()
      .describe(
        "The package source as configured (`npm:…`, a git URL, a local folder as an absolute path); `local` or `auto` for the learner's and the space's own Pi folders.",
      ),
    level: packageLevelSchema.describe(
      "`application` (the learner's Pi settings) or `space` (the space's `.pi/settings.json`).",
    ),
    description: z
      .string()
      .optional()
      .describe("What it does, as its package says (a tool's, skill's or template's description)."),
    topLevel: z
      .boolean()
      .optional()
      .describe('True when it comes from a Pi folder or settings entry, not from a package.'),
  })
  .meta({
    id: 'PackageResource',
    description:
      'One thing a Pi package brings to a session: an extension, a tool, a skill or a prompt template.',
  });

/** One of Pi's resource-loading diagnostics (spec R75). */
export const resourceDiagnosticSchema = z
  .looseObject({
    kind: z
      .enum(['extension', 'skill', 'prompt'])
      .describe('What the diagnostic is about: `extension`, `skill` or `prompt`.'),
    severity: z.enum(['error', 'warning']).describe('`error` (not loaded) or `warning`.'),
    message: z.string().describe("Pi's message (or Repa's, for a refused extension)."),
    path: z.string().optional().describe('The file concerned, when known.'),
  })
  .meta({
    id: 'ResourceDiagnostic',
    description:
      "One of Pi's resource-loading diagnostics: an extension that failed or was refused, a skill or prompt template with a bad header or a name collision.",
  });

/** One Pi package configured at a level. */
export const configuredPackageSchema = z
  .looseObject({
    source: z
      .string()
      .describe("The package source as in Pi's settings; a local folder as an absolute path."),
    level: packageLevelSchema.describe('Where it is configured.'),
    installedPath: z
      .string()
      .optional()
      .describe('Where Pi has it on disk (absent when it is not installed yet).'),
    filtered: z.boolean().describe("True when Pi's settings load only some of its resources."),
  })
  .meta({ id: 'ConfiguredPackage', description: 'One Pi package configured at a level.' });
