import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { describeModel, OFFLINE_MODEL } from '../app-directory.js';
import type { Command } from '../command.js';
import { daemonStatus } from '../daemon-control.js';
import { writeJson } from '../format-table.js';
import { loadApplication } from '../load-application.js';
import { describeDaemon } from './daemon-commands.js';

const MINIMUM_NODE = [22, 19] as const;

/** Environment variables Pi reads keys from, for the most used providers (names only). */
const KEY_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
];

function nodeOk(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
}

const doctor: Command = {
  words: ['doctor'],
  summary: 'check Node, the app directory, the daemon, Pi and the models',
  usage: 'doctor',
  help: `Checks what Repa needs and says how to fix it: the Node version, the app directory, the daemon
(never started by doctor), Pi's agent directory (auth.json, models.json), the models that have
credentials, or that runs use the offline responder, and how to add a key.`,
  options: {},
  positionals: [0, 0],
  async run(context) {
    const { chooseModel, defaultAgentDir } = await loadApplication();
    const agentDir = context.agentDir ?? defaultAgentDir();
    const node = { version: process.version, ok: nodeOk(process.version), required: '>=22.19' };
    const appDirectory = { path: context.appDirectory, exists: existsSync(context.appDirectory) };
    const daemon = await daemonStatus(context.appDirectory);
    const authPath = join(agentDir, 'auth.json');
    const modelsPath = join(agentDir, 'models.json');
    const pi = {
      agentDir,
      exists: existsSync(agentDir),
      authJson: existsSync(authPath),
      modelsJson: existsSync(modelsPath),
      keyVariablesSet: KEY_VARIABLES.filter((name) => Boolean(process.env[name])),
    };
    let models: { default: string; offline: boolean; available: string[] } | { error: unknown };
    try {
      const choice = await chooseModel({ agentDir });
      const available = choice.offline
        ? []
        : (await choice.modelRuntime.getAvailable()).map(
            (model) => `${model.provider}/${model.id}`,
          );
      models = { default: choice.label, offline: choice.offline, available };
    } catch (error) {
      models = { error: RepaError.fromUnknown(error).toWire() };
    }
    const howToAddKey = [
      `store a key in ${authPath}, e.g. {"anthropic": {"type": "api_key", "key": "sk-ant-…"}}`,
      `or export a variable Pi reads before the daemon starts, e.g. ${KEY_VARIABLES.slice(0, 3).join(', ')}`,
      'then restart the daemon (repa daemon stop; the next command starts it again)',
    ];
    if (context.json) {
      writeJson(context.stdout, {
        node,
        appDirectory,
        daemon,
        pi,
        models,
        howToAddKey,
      });
      return 0;
    }
    const out = context.stdout;
    out.write(
      `node      ${node.version} ${node.ok ? '(ok)' : `(too old: Repa needs Node ${node.required})`}\n`,
    );
    out.write(`app dir   ${appDirectory.path}${appDirectory.exists ? '' : ' (not created yet)'}\n`);
    out.write(describeDaemon(daemon));
    out.write(
      `pi        ${agentDir}${pi.exists ? '' : ' (does not exist)'}; auth.json ${pi.authJson ? 'present' : 'absent'}, models.json ${pi.modelsJson ? 'present' : 'absent'}\n`,
    );
    out.write(
      `keys env  ${pi.keyVariablesSet.length > 0 ? pi.keyVariablesSet.join(', ') : `none of ${KEY_VARIABLES.join(', ')}`}\n`,
    );
    if ('error' in models) {
      const error = models.error as { message: string; code: string };
      out.write(`models    Pi's configuration cannot be read: ${error.message} (${error.code})\n`);
    } else if (models.offline) {
      out.write(`models    none with credentials; runs use ${describeModel(OFFLINE_MODEL)}\n`);
    } else {
      const shown = models.available.slice(0, 10);
      out.write(
        `models    ${models.available.length} with credentials; the daemon's default: ${models.default}\n`,
      );
      for (const model of shown) out.write(`          ${model}\n`);
      if (models.available.length > shown.length) {
        out.write(`          … and ${models.available.length - shown.length} more\n`);
      }
    }
    out.write(
      `\nTo use a real model:\n${howToAddKey.map((line) => `  - ${line}`).join('\n')}\n  - or choose one: repa daemon start --model provider/id\n`,
    );
    return 0;
  },
};

/** `repa doctor`. */
export const doctorCommands: Command[] = [doctor];
