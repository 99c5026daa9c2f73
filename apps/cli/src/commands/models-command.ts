import type { ModelInfo } from '@repa/protocol';
import type { Command } from '../command.js';
import { formatTable, writeJson } from '../format-table.js';
import { terminalWidth } from '../style.js';

function credentialsOf(model: ModelInfo): string {
  if (!model.credentials) return 'none';
  if (model.credentialSource === 'environment' && model.credentialVariable) {
    return `environment (${model.credentialVariable})`;
  }
  return model.credentialSource ?? 'yes';
}

function contextOf(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

const models: Command = {
  words: ['models'],
  summary: 'list the models Pi knows, with where their credentials come from',
  usage: 'models [--all]',
  help: `Lists the models Pi knows from its configuration (the daemon's Pi agent directory): provider/id,
context window, whether the model supports thinking levels, and where Pi finds its credentials
(environment variable, Pi's auth file, OAuth login, models.json) — never the secret itself. The
model runs use when no settings level sets model.id is marked with *.

Options:
  --all   also list the models without credentials

Use an id with repa run --model ID, or set it: repa settings set model.id ID.`,
  options: { all: { type: 'boolean' } },
  positionals: [0, 0],
  async run(context, _args, values) {
    const client = await context.client();
    const result = await client.request('models.list', { all: values.all === true });
    if (context.json) {
      writeJson(context.stdout, result);
      return 0;
    }
    if (result.models.length === 0) {
      context.stdout.write(
        `No model has credentials; runs use ${result.default}. Add a key for a provider (see repa doctor), or list every model with --all.\n`,
      );
      return 0;
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
    if (!result.models.some((model) => model.default)) {
      context.stdout.write(`Runs use ${result.default} unless a settings level sets model.id.\n`);
    }
    return 0;
  },
};

/** `repa models`. */
export const modelsCommands: Command[] = [models];
