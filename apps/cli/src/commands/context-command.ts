import { latestSession, spaceOf } from '../cli-context.js';
import type { Command } from '../command.js';
import { writeJson } from '../format-table.js';

const str = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

const contextShow: Command = {
  words: ['context', 'show'],
  summary: 'show the learning context the next run would see',
  usage: 'context show [--space DIR] [--session ID]',
  help: `Shows the space's current learning context (revision, sources and body, from
<space>/.repa/learning-context.json), or "none", and whether the next run of the session is given it
(the prompts.learningContext setting). A damaged file is reported as context_unavailable, the same
error the next run would fail with.

Options:
  --space DIR      the space (default: the current directory)
  --session ID     the session whose settings decide (default: the space's most recent session)

With --json: {"space", "sessionId", "provided", "learningContext": {"revision", "sources", "body"} | null}.`,
  options: { space: { type: 'string' }, session: { type: 'string' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const space = spaceOf(context, str(values.space));
    const client = await context.client();
    const sessionId = str(values.session) ?? (await latestSession(client, space))?.sessionId;
    const { items } = await client.request('settings.get', {
      space,
      ...(sessionId ? { sessionId } : {}),
    });
    const setting = items.find((item) => item.key === 'prompts.learningContext');
    const provided = setting?.value !== false;
    const { context: found } = await client.request('context.get', { space });
    const learningContext = found && {
      revision: found.revision,
      sources: found.sources,
      body: found.body,
    };
    if (context.json) {
      writeJson(context.stdout, { space, sessionId: sessionId ?? null, provided, learningContext });
      return 0;
    }
    const out = context.stdout;
    out.write(`space     ${space}\n`);
    if (learningContext === null) {
      out.write('context   none (the space has no .repa/learning-context.json)\n');
      return 0;
    }
    out.write(`revision  ${learningContext.revision}\n`);
    out.write(`sources   ${learningContext.sources.join(', ') || '(none)'}\n`);
    out.write(
      `provided  ${provided ? 'yes' : 'no'} (prompts.learningContext = ${JSON.stringify(setting?.value ?? true)}, from ${setting?.source ?? 'default'})\n`,
    );
    out.write(`\n${learningContext.body}${learningContext.body.endsWith('\n') ? '' : '\n'}`);
    return 0;
  },
};

/** `repa context show`. */
export const contextCommands: Command[] = [contextShow];
