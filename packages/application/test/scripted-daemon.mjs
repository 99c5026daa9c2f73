#!/usr/bin/env node
// A real Repa daemon process (runDaemon from the built package) on Pi's faux provider with the
// scripted model of @repa/host/testing, so tests can hold a run open, save mid-run, cancel, kill.
//   node scripted-daemon.mjs <appDirectory> <agentDir> [answer-holds]
// `answer-holds` answers `hold …` requests at once instead of holding them.
import { createScriptedModel } from '@repa/host/testing';
import { runDaemon } from '../dist/index.js';

const [appDirectory, agentDir, mode] = process.argv.slice(2);
process.env.PI_OFFLINE = '1';
const daemon = await runDaemon({
  appDirectory,
  agentDir,
  modelChoice: await createScriptedModel({ holds: mode !== 'answer-holds' }),
});
process.stdout.write(`ready ${daemon.socketPath}\n`);
process.once('SIGTERM', () => void daemon.close({ graceMs: 500 }).then(() => process.exit(0)));
