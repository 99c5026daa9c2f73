import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OFFLINE_MODEL_ID, type V1Result } from '@repa/protocol';
import { spaceOf } from '../cli-context.js';
import type { Command } from '../command.js';
import { daemonStatus } from '../daemon-control.js';
import { describeModel } from '../describe-model.js';
import { writeJson } from '../format-table.js';
import { loadApplication } from '../load-application.js';
import { describeDaemon } from './daemon-commands.js';

const MINIMUM_NODE = [22, 19] as const;

function nodeOk(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
}

const BASH_SETTING =
  "tools.bash 'off' (default) never runs commands; 'sandboxed' runs them only inside bubblewrap, refused with sandbox_unavailable without it";

const doctor: Command = {
  words: ['doctor'],
  summary: 'check Node, the app directory, the daemon, Pi and the models',
  usage: 'doctor',
  help: `Checks what Repa needs and says how to fix it: the Node version, the app directory, the daemon
(never started by doctor), Pi's agent directory (auth.json, models.json), the models that have
credentials, or that runs use the offline responder, whether the \`bash\` tool's sandbox (bubblewrap,
\`bwrap\`) starts where the daemon runs (the check a run makes; why not, and the fix), and how to add
a key.`,
  options: {},
  positionals: [0, 0],
  async run(context) {
    const node = { version: process.version, ok: nodeOk(process.version), required: '>=22.19' };
    const appDirectory = { path: context.appDirectory, exists: existsSync(context.appDirectory) };
    const daemon = await daemonStatus(context.appDirectory);
    // A running daemon answers for the Pi configuration it uses; else the CLI looks itself (never
    // starting a daemon), with the same code the daemon runs.
    const facts = daemon.running
      ? await (await context.client()).request('doctor', {})
      : await (await loadApplication()).doctorFacts({ agentDir: context.agentDir });
    const { agentDir, keyVariables, ...piFacts } = facts.pi;
    const pi = { agentDir, ...piFacts };
    const authPath = join(agentDir, 'auth.json');
    const { error: modelsError } = facts.models;
    const models:
      | { default: string; offline: boolean; available: string[] }
      | { error: NonNullable<typeof modelsError> } = modelsError
      ? { error: modelsError }
      : {
          default: facts.models.default,
          offline: facts.models.offline,
          available: facts.models.available,
        };
    const sandbox = { ...facts.sandbox, setting: BASH_SETTING };
    // The working directory's trust, when it is a space and a daemon answers (doctor starts none
    // and writes nothing: a folder that is not a space yet is not opened).
    const spaceRoot = spaceOf(context, undefined);
    const space =
      daemon.running && existsSync(join(spaceRoot, '.repa'))
        ? (await (await context.client()).request('space.open', { root: spaceRoot })).space
        : undefined;
    const howToAddKey = [
      `store a key in ${authPath}, e.g. {"anthropic": {"type": "api_key", "key": "sk-ant-…"}}`,
      `or export a variable Pi reads before the daemon starts, e.g. ${keyVariables.slice(0, 3).join(', ')}`,
      'then restart the daemon (repa daemon stop; the next command starts it again)',
    ];
    if (context.json) {
      writeJson(context.stdout, {
        node,
        appDirectory,
        daemon,
        pi,
        models,
        sandbox,
        ...(space ? { space } : {}),
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
      `keys env  ${pi.keyVariablesSet.length > 0 ? pi.keyVariablesSet.join(', ') : `none of ${keyVariables.join(', ')}`}\n`,
    );
    if ('error' in models) {
      const { error } = models;
      out.write(`models    Pi's configuration cannot be read: ${error.message} (${error.code})\n`);
    } else if (models.offline) {
      out.write(`models    none with credentials; runs use ${describeModel(OFFLINE_MODEL_ID)}\n`);
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
    out.write(`${describeSandbox(facts.sandbox, daemon.running)}          ${BASH_SETTING}\n`);
    if (space) out.write(describeTrust(space));
    out.write(
      `\nTo use a real model:\n${howToAddKey.map((line) => `  - ${line}`).join('\n')}\n  - or choose one: repa daemon start --model provider/id\n`,
    );
    return 0;
  },
};

/**
 * The `sandbox` lines: the check a run makes (where the daemon runs when it is running), and when
 * it fails what a command would be refused with.
 */
function describeSandbox(sandbox: V1Result<'doctor'>['sandbox'], daemonRunning: boolean): string {
  if (sandbox === undefined) {
    return 'sandbox   not reported by the daemon (an older version: repa daemon stop, and the next command starts this one)\n';
  }
  if (sandbox.ready) {
    return `sandbox   bwrap ${sandbox.bwrap} starts a sandbox here: with tools.bash 'sandboxed' commands can run\n`;
  }
  if (sandbox.bwrap === null && process.platform === 'linux') {
    return `sandbox   bwrap not on ${daemonRunning ? "the daemon's" : 'the'} PATH (install bubblewrap, e.g. apt-get install bubblewrap, for tools.bash 'sandboxed')\n`;
  }
  const { error } = sandbox;
  const reason = error ? `${error.message} (${error.code})` : 'the check failed';
  return `sandbox   a command would be refused: ${reason}\n${error?.fix ? `          Fix: ${error.fix}\n` : ''}`;
}

/** The `space` line: whether the working directory's space is trusted, and why not. */
function describeTrust(space: V1Result<'space.open'>['space']): string {
  if (space.trusted) {
    const why = space.trustReason === 'created' ? 'Repa made it a space' : 'you trusted it';
    return `space     ${space.root}: trusted (${why})\n`;
  }
  const items = space.restricted ?? [];
  return `space     ${space.root}: restricted${items.length > 0 ? `; ${items.map((item) => item.path).join(', ')} have no effect` : ''} (repa trust shows what it would turn on)\n`;
}

/** `repa doctor`. */
export const doctorCommands: Command[] = [doctor];
