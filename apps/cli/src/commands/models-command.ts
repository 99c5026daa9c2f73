import type { ModelInfo } from '@repa/protocol';
import { type Command, defineCommand } from '../command.js';
import { currentSpace } from '../current-space.js';
import { describeRunModel } from '../describe-model.js';
import { formatTable, writeJson } from '../format-table.js';
import { terminalWidth } from '../style.js';

function credentialsOf(model: ModelInfo): string {
  if (model.offline) return 'none needed (built in)';
  if (!model.credentials) return 'none';
  if (model.credentialSource === 'environment' && model.credentialVariable) {
    return `environment (${model.credentialVariable})`;
  }
  return model.credentialSource ?? 'yes';
}

function contextOf(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

const models = defineCommand({
  words: ['models'],
  summary: 'list the models Pi knows, with where their credentials come from',
  usage: 'models [--all]',
  help: `Lists the models Pi knows from its configuration (the daemon's Pi agent directory, read again
when it changes): provider/id, context window, whether the model supports thinking levels, and where
Pi finds its credentials (environment variable, Pi's auth file, OAuth login, models.json) — never
the secret itself — and repa-offline, the local responder, always. The model a run uses when no
settings level sets model.id (the daemon's --model, else Pi's default among the models with
credentials, else repa-offline) is marked with *; in a space, the model its next run uses is named
below the table. A models.json that cannot be read is named with its error; the other models are
listed.

Options:
  --all   also list the models without credentials

Use an id with repa run --model ID, or set it: repa settings set model.id ID.`,
  options: { all: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    const space = currentSpace(context);
    const result = await client.request('models.list', {
      all: values.all === true,
      ...(space ? { space } : {}),
    });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    if (result.error) {
      context.stderr.write(
        `repa: ${result.error.message} (${result.error.code})\nFix: ${result.error.fix}\n`,
      );
    }
    const rows = result.models.map((model) => [
      `${model.default ? '*' : ' '} ${model.id}`,
      contextOf(model.contextWindow),
      model.reasoning ? 'yes' : 'no',
      credentialsOf(model),
    ]);
    context.stdout.write(
      formatTable(['  model', 'context', 'thinking', 'credentials'], rows, {
        width: terminalWidth(context.stdout),
        out: context.stdout,
      }),
    );
    if (!result.models.some((model) => model.credentials && !model.offline)) {
      context.stdout.write(
        'No model has credentials: runs use repa-offline. Add a key with repa login PROVIDER (see repa doctor), or list every model with --all.\n',
      );
    }
    if (result.next) {
      context.stdout.write(`This space's next run uses ${describeRunModel(result.next)}.\n`);
    }
    return 0;
  },
});

/** `repa models`. */
export const modelsCommands: Command[] = [models];
