import { describe, expect, it } from 'vitest';
import { RepaError } from '../v1/errors/repa-error.js';
import { daemonPaths } from './app-directory.js';
import {
  formatDaemonFailure,
  formatDaemonReady,
  parseDaemonFailure,
  parseDaemonReady,
} from './daemon-output.js';

describe('daemon output lines', () => {
  it('parses the ready line it formats, among other log lines', () => {
    const line = formatDaemonReady({ socketPath: '/app/run/daemon.sock', model: 'repa-offline' });
    expect(line).toBe('repa-daemon ready socket=/app/run/daemon.sock model=repa-offline\n');
    expect(parseDaemonReady(`earlier output\n${line}`)).toEqual({
      socketPath: '/app/run/daemon.sock',
      model: 'repa-offline',
    });
    expect(parseDaemonReady('repa-daemon starting\n')).toBeNull();
  });

  it('parses a ready line without a model (each run decides its own)', () => {
    const line = formatDaemonReady({ socketPath: '/app/run/daemon.sock' });
    expect(line).toBe('repa-daemon ready socket=/app/run/daemon.sock\n');
    expect(parseDaemonReady(line)).toEqual({ socketPath: '/app/run/daemon.sock' });
  });

  it('parses the failure it formats into message, code and fix', () => {
    const error = new RepaError('not_found', 'Pi knows no model nope/x.', { fix: 'Use another.' });
    expect(parseDaemonFailure(`noise\n${formatDaemonFailure(error)}`)).toEqual({
      message: 'Pi knows no model nope/x.',
      code: 'not_found',
      fix: 'Use another.',
    });
    expect(parseDaemonFailure('repa-daemon: odd (no_such_code)\nFix: x\n')?.code).toBe('internal');
    expect(parseDaemonFailure('Segmentation fault\n')).toBeNull();
  });
});

describe('daemonPaths', () => {
  it('puts socket, pid, log and web state under <appDirectory>/run', () => {
    expect(daemonPaths('/app')).toEqual({
      runDirectory: '/app/run',
      socketPath: '/app/run/daemon.sock',
      pidPath: '/app/run/daemon.pid',
      logPath: '/app/run/daemon.log',
      webStatePath: '/app/run/web.json',
    });
  });
});
