import { describe, expect, it } from 'vitest';
import { invalidRequestFromZod, v1Methods } from '../schemas.js';
import { coerceSettingValue } from './setting-items.js';

/** The refusal of `method` with `params`, as the daemon builds it. */
function refusal(method: keyof typeof v1Methods, params: Record<string, unknown>) {
  const parsed = v1Methods[method].params.safeParse(params);
  if (parsed.success) throw new Error(`${method} took ${JSON.stringify(params)}`);
  return invalidRequestFromZod(parsed.error, params);
}

/** `settings.set` of `key` to `text` as typed (coerced as the CLI and the page coerce it). */
function setting(key: string, text: string): string {
  return refusal('settings.set', {
    level: 'application',
    key,
    value: coerceSettingValue(key, text),
  }).message;
}

describe('invalidRequestFromZod', () => {
  it('names a setting by its key and says in words what it takes and what was given', () => {
    expect(setting('tools.bash', 'nope')).toBe(
      '`tools.bash` must be one of `off` or `sandboxed`, not `nope`.',
    );
    expect(setting('model.thinkingLevel', 'loud')).toBe(
      '`model.thinkingLevel` must be one of `off`, `minimal`, `low`, `medium`, `high` or `xhigh`, not `loud`.',
    );
    expect(setting('daemon.idleMinutes', 'soon')).toBe(
      '`daemon.idleMinutes` must be a number, not text.',
    );
    expect(setting('tools.bashTimeoutSeconds', '1.5')).toBe(
      '`tools.bashTimeoutSeconds` must be a whole number, not a fraction.',
    );
    expect(setting('runs.retentionDays', '99999')).toBe(
      '`runs.retentionDays` must be at most 36500, not `99999`.',
    );
    expect(setting('tools.enabled', '3')).toBe('`tools.enabled` must be a list, not a number.');
  });

  it("keeps zod's words out of every refusal, and each field's full path in details", () => {
    const missing = refusal('run.get', {});
    expect(missing.message).toBe('`runId` is missing: it must be text.');
    expect(missing.details).toEqual({
      issues: [{ path: 'params.runId', message: '`runId` is missing: it must be text' }],
    });
    const extra = refusal('run.get', { runId: 'r1', color: 'red' });
    expect(extra.message).toBe('The request has no field `color`.');
    const empty = refusal('session.rename', { space: '/s', sessionId: 's1', title: '' });
    expect(empty.message).toContain('`title` must not be empty');
    for (const error of [missing, extra, empty]) {
      expect(error.code).toBe('invalid_request');
      expect(error.message).not.toMatch(
        /Invalid (input|option)|Too (small|big)|Unrecognized key|params\./,
      );
    }
  });

  it("quotes a schema author's own message as written", () => {
    expect(setting('no.such.key', '1')).toMatch(
      /^`key`: Unknown setting; known settings: prompts\.base, /,
    );
  });
});
