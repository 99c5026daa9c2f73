import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MODEL_SOURCE_WORDS, type RepaClient, type V1Result } from '@repa/protocol';
import type { CliContext } from '../cli-context.js';
import { type Command, defineCommand } from '../command.js';
import { currentSpace } from '../current-space.js';
import { type DaemonStatus, daemonConnection } from '../daemon-control.js';
import { describeModel, describeRunModel } from '../describe-model.js';
import { writeJson } from '../format-table.js';
import { loadApplication } from '../load-application.js';
import { describeDaemon } from './daemon-commands.js';
import { diagnosticLines } from './packages-commands.js';
import { restrictedPaths } from './trust-commands.js';

const MINIMUM_NODE = [22, 19] as const;

function nodeOk(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
}

const BASH_SETTING =
  "tools.bash 'off' (default) never runs commands; 'sandboxed' runs them only inside bubblewrap, refused with sandbox_unavailable without it";

const doctor = defineCommand({
  words: ['doctor'],
  summary: 'check Node, the app directory, the daemon, Pi and the models',
  usage: 'doctor',
  help: `Checks what Repa needs and says how to fix it: the Node version, the app directory, the daemon
(never started by doctor), Pi's agent directory (auth.json, models.json: what could not be read),
the providers with credentials and where each comes from, the model a run uses when no settings
level sets model.id, the model this space's next run uses and why, whether the running daemon is
older than Pi's configuration or this shell's key variables (and what that means), whether the
\`bash\` tool's sandbox (bubblewrap, \`bwrap\`) starts where the daemon runs (the check a run makes;
why not, and the fix), and how to add a key.`,
  options: {},
  positionals: [0, 0],
  async run(context) {
    // One connection, when a daemon runs: its state, then the questions below.
    const { status: daemon, client } = await daemonConnection(context.appDirectory, {
      name: 'repa',
      version: context.version,
    });
    try {
      return await report(context, daemon, client);
    } finally {
      await client?.close();
    }
  },
});

/** Writes what `repa doctor` found, asking the running daemon on `client` when there is one. */
async function report(
  context: CliContext,
  daemon: DaemonStatus,
  client: RepaClient | undefined,
): Promise<number> {
  const node = { version: process.version, ok: nodeOk(process.version), required: '>=22.19' };
  const appDirectory = { path: context.appDirectory, exists: existsSync(context.appDirectory) };
  // A running daemon answers for the Pi configuration it uses; else the CLI looks itself (never
  // starting a daemon), with the same code the daemon runs.
  const spaceRoot = currentSpace(context);
  const facts = client
    ? await client.request('doctor', spaceRoot ? { space: spaceRoot } : {})
    : await (await loadApplication()).doctorFacts({ agentDir: context.agentDir });
  const { agentDir, keyVariables, ...piFacts } = facts.pi;
  const pi = { agentDir, ...piFacts };
  const models = facts.models;
  const sandbox = { ...facts.sandbox, setting: BASH_SETTING };
  // The working directory's trust, when it is a space and a daemon answers (doctor starts none
  // and writes nothing: a folder that is not a space yet is not opened).
  const space =
    client && spaceRoot
      ? (await client.request('space.open', { root: spaceRoot })).space
      : undefined;
  const freshness = daemon.running ? freshnessOf(context, daemon, facts) : undefined;
  const howToAddKey = [
    'repa login PROVIDER: Pi stores the key in its auth.json and the next run uses it (no restart)',
    `or write it into ${join(agentDir, 'auth.json')} by hand, e.g. {"anthropic": {"type": "api_key", "key": "sk-ant-…"}} (read again at the next run)`,
    `or export a variable Pi reads, e.g. ${keyVariables.slice(0, 3).join(', ')}: the daemon reads them when it starts (repa daemon restart)`,
  ];
  if (context.json) {
    writeJson(context.stdout, {
      node,
      appDirectory,
      daemon,
      pi,
      models,
      sandbox,
      ...(freshness ? { freshness } : {}),
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
    `keys env  ${pi.keyVariablesSet.length > 0 ? pi.keyVariablesSet.join(', ') : `none of ${keyVariables.join(', ')}`}${daemon.running ? " (the daemon's environment, read when it started)" : ''}\n`,
  );
  out.write(describeModels(models));
  for (const line of freshness?.notes ?? []) out.write(`          ${line}\n`);
  out.write(`${describeSandbox(facts.sandbox, daemon.running)}          ${BASH_SETTING}\n`);
  if (facts.packages) out.write(describePackages(facts.packages));
  if (space) out.write(describeTrust(space));
  out.write(
    `\nTo use a real model:\n${howToAddKey.map((line) => `  - ${line}`).join('\n')}\n  - choose one for a space: repa settings set model.id provider/id (repa models lists them)\n`,
  );
  return 0;
}

/** The `packages` lines: how many are configured, and Pi's diagnostics of them (spec R75). */
function describePackages(packages: NonNullable<V1Result<'doctor'>['packages']>): string {
  const problems = packages.error
    ? `could not be listed: ${packages.error.message}`
    : `${packages.diagnostics.length === 0 ? 'no' : packages.diagnostics.length} problem${packages.diagnostics.length === 1 ? '' : 's'}`;
  return `packages  ${packages.configured} configured (repa packages list); ${problems}\n${diagnosticLines(packages.diagnostics)}`;
}

/** The `models` lines: credentials by provider, the default, a space's next model, what failed. */
function describeModels(models: V1Result<'doctor'>['models']): string {
  if (models.error) {
    return `models    Pi's configuration cannot be read: ${models.error.message} (${models.error.code})\n`;
  }
  const lines: string[] = [];
  const credentials = models.credentials ?? [];
  lines.push(
    models.available.length === 0
      ? 'models    none with credentials (Pi reads auth.json and models.json again at each run)'
      : `models    ${models.available.length} with credentials now, from:`,
  );
  for (const entry of credentials) {
    const variable = entry.credentialVariable ? ` (${entry.credentialVariable})` : '';
    lines.push(
      `            ${entry.provider}: ${entry.credentialSource}${variable}, ${entry.models} model${entry.models === 1 ? '' : 's'}`,
    );
  }
  const why =
    MODEL_SOURCE_WORDS[
      models.daemonModel ? 'daemon' : models.offline ? 'no-credentials' : 'pi-default'
    ];
  lines.push(`default   ${describeModel(models.default)} — ${why}, when no level sets model.id`);
  if (models.next) lines.push(`next run  in this space: ${describeRunModel(models.next)}`);
  if (models.configError) {
    lines.push(`config    ${models.configError.message} (${models.configError.code})`);
    lines.push(`          Fix: ${models.configError.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Whether the running daemon is older than what it reads: Pi's files are read again at each run
 * (nothing to do); key variables are the daemon's from its start, so one exported since in this
 * shell needs a restart; a daemon of another Repa version is restarted to match this command.
 */
function freshnessOf(
  context: { version: string },
  daemon: DaemonStatus,
  facts: V1Result<'doctor'>,
): { startedAt?: string; missingVariables: string[]; notes: string[] } {
  const notes: string[] = [];
  const startedAt = facts.startedAt;
  const changed = Object.entries(facts.pi.changedAt ?? {}).filter(
    ([, at]) => startedAt !== undefined && typeof at === 'string' && at > startedAt,
  );
  if (startedAt) {
    notes.push(
      changed.length > 0
        ? `the daemon started ${startedAt}; ${changed.map(([file]) => file.replace(/Json$/, '.json')).join(', ')} changed since: read again at the next run, no restart needed`
        : `the daemon started ${startedAt}; Pi's files are read again whenever they change`,
    );
  }
  const inDaemon = new Set(facts.pi.keyVariablesSet);
  const missingVariables = facts.pi.keyVariables.filter(
    (name) => Boolean(process.env[name]) && !inDaemon.has(name),
  );
  if (missingVariables.length > 0) {
    notes.push(
      `${missingVariables.join(', ')} set in this shell but not in the daemon, which read its environment when it started: repa daemon restart to use ${missingVariables.length === 1 ? 'it' : 'them'}`,
    );
  }
  const version = daemon.server?.version;
  if (version && version !== context.version) {
    notes.push(
      `the daemon runs repa ${version}, this command is ${context.version}: repa daemon restart`,
    );
  }
  return { ...(startedAt ? { startedAt } : {}), missingVariables, notes };
}

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
  return `space     ${space.root}: restricted${items.length > 0 ? `; ${restrictedPaths(items).join(', ')} have no effect` : ''} (repa trust shows what it would turn on)\n`;
}

/** `repa doctor`. */
export const doctorCommands: Command[] = [doctor];
