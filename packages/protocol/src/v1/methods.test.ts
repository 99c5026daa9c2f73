import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { malformed } from '../test/malformed-params.js';
import { examples, sha } from '../test/method-examples.js';
import { invalidRequestFromZod, jsonRpcRequestSchema, jsonRpcResponseSchema } from './json-rpc.js';
import { v1JsonSchemas } from './json-schema.js';
import { v1Methods, v1Notifications } from './methods.js';

const roundTrip = (schema: z.ZodType, value: unknown) =>
  schema.parse(JSON.parse(JSON.stringify(schema.parse(value))));

describe('v1 methods', () => {
  for (const [method, { params, result }] of Object.entries(v1Methods)) {
    describe(method, () => {
      const example = examples[method as keyof typeof v1Methods];
      const bad = malformed[method as keyof typeof v1Methods];

      it('round-trips valid params and result', () => {
        expect(roundTrip(params, example.params)).toEqual(example.params);
        expect(roundTrip(result, example.result)).toEqual(example.result);
      });

      it('rejects malformed params naming the bad field', () => {
        const parsed = params.safeParse(bad.params);
        expect(parsed.success).toBe(false);
        if (parsed.success) return;
        const error = invalidRequestFromZod(parsed.error, bad.params);
        expect(error.code).toBe('invalid_request');
        expect(error.details?.issues).toContainEqual(expect.objectContaining({ path: bad.path }));
      });
    });
  }
});

describe('run.event', () => {
  const schema = v1Notifications['run.event'];
  const events = [
    { type: 'status', status: 'running' },
    {
      type: 'status',
      status: 'failed',
      error: { code: 'context_unavailable', message: 'm', fix: 'f' },
    },
    { type: 'text-delta', delta: 'Hel' },
    { type: 'tool-start', toolCallId: 't1', toolName: 'edit', args: { path: 'a.md' } },
    {
      type: 'tool-end',
      toolCallId: 't1',
      toolName: 'edit',
      isError: false,
      operationId: 'op1',
      receipts: [
        {
          operationId: 'op1',
          target: 'a.md',
          identity: 'repa:document/d1',
          previousVersion: sha,
          version: sha,
          bytes: 4,
        },
      ],
    },
    { type: 'context-snapshot', revision: '7', chars: 120, sources: ['notes/a.md'] },
    {
      type: 'file-change-notice',
      changes: [
        { target: 'a.md', kind: 'modified', previousVersion: sha, version: sha, form: 'notice' },
      ],
    },
    { type: 'compaction', phase: 'end', tokensBefore: 1000, estimatedTokensAfter: 200 },
    {
      type: 'prompt-sections',
      sections: [
        { name: 'base', included: true, reason: 'default', text: 'x', chars: 1, sha256: sha },
      ],
    },
  ];

  it('round-trips every event kind', () => {
    events.forEach((event, index) => {
      const params = { runId: 'r1', sessionId: 's1', seq: index + 1, event };
      expect(roundTrip(schema, params)).toEqual(params);
    });
  });

  it('rejects an unknown event type and a bad receipt version, naming the path', () => {
    const unknown = schema.safeParse({
      runId: 'r',
      sessionId: 's',
      seq: 1,
      event: { type: 'nope' },
    });
    expect(unknown.success).toBe(false);
    const badReceipt = schema.safeParse({
      runId: 'r',
      sessionId: 's',
      seq: 1,
      event: {
        ...events[4],
        receipts: [{ ...(events[4] as { receipts: object[] }).receipts[0], version: 'xyz' }],
      },
    });
    expect(badReceipt.success).toBe(false);
    if (!badReceipt.success) {
      expect(invalidRequestFromZod(badReceipt.error, {}).message).toContain(
        'event.receipts.0.version',
      );
    }
  });
});

describe('JSON-RPC framing', () => {
  it('accepts requests and notifications, rejects a wrong version', () => {
    expect(
      jsonRpcRequestSchema.safeParse({ jsonrpc: '2.0', id: 1, method: 'run.get', params: {} })
        .success,
    ).toBe(true);
    expect(jsonRpcRequestSchema.safeParse({ jsonrpc: '2.0', method: 'run.event' }).success).toBe(
      true,
    );
    expect(jsonRpcRequestSchema.safeParse({ jsonrpc: '1.0', id: 1, method: 'x' }).success).toBe(
      false,
    );
  });

  it('requires the Repa error in an error response', () => {
    const ok = {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'm', data: { code: 'busy', message: 'm', fix: 'f' } },
    };
    expect(jsonRpcResponseSchema.safeParse(ok).success).toBe(true);
    expect(
      jsonRpcResponseSchema.safeParse({ ...ok, error: { code: -32000, message: 'm' } }).success,
    ).toBe(false);
  });
});

describe('JSON Schema export', () => {
  it('matches the committed schema/v1.json (run `pnpm --filter @repa/protocol schema`)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../schema/v1.json', import.meta.url), 'utf8'),
    );
    expect(JSON.parse(JSON.stringify(v1JsonSchemas()))).toEqual(committed);
  });

  it('covers every method and notification', () => {
    const schemas = v1JsonSchemas();
    expect(Object.keys(schemas.methods).sort()).toEqual(Object.keys(v1Methods).sort());
    expect(Object.keys(schemas.notifications)).toEqual([
      'run.event',
      'session.run',
      'context.progress',
      'login.progress',
    ]);
    expect(schemas.methods['run.submit']?.params).toMatchObject({
      required: expect.arrayContaining(['requestId']),
    });
  });
});
