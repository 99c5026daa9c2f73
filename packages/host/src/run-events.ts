import type { AgentSessionEvent } from '@earendil-works/pi-coding-agent';
import { parseToolErrorText, type RunEvent, type WireError } from '@repa/protocol';
import { saveDiffSchema, saveReceiptSchema } from '@repa/protocol/schemas';
import { z } from 'zod';

const toolDetailsSchema = z.looseObject({
  operationId: z.string().optional(),
  receipts: z.array(saveReceiptSchema).optional(),
  diffs: z.array(saveDiffSchema).optional(),
});

/** A read's progress (`details.progress` of Pi's update) and the pages it sent as images. */
const progressSchema = z.looseObject({
  progress: z.looseObject({
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    target: z.string(),
  }),
});
const imagesSchema = z.looseObject({
  document: z.looseObject({ images: z.array(z.number().int().positive()) }),
});

/** The wire error of a failed tool call, from the text Pi made of the thrown error. */
function errorOfResult(result: unknown): WireError {
  const content = (result as { content?: unknown } | undefined)?.content;
  const text = Array.isArray(content)
    ? content
        .filter((block): block is { type: 'text'; text: string } => block?.type === 'text')
        .map((block) => block.text)
        .join('\n')
    : '';
  return parseToolErrorText(text);
}

/**
 * Maps one Pi session event to the protocol v1 run events it stands for (most map to none).
 * Contract: Pi's own events are the source; nothing here invents progress Pi did not report.
 */
export function runEventsFromPi(event: AgentSessionEvent): RunEvent[] {
  switch (event.type) {
    case 'message_update': {
      const update = event.assistantMessageEvent;
      return update.type === 'text_delta' ? [{ type: 'text-delta', delta: update.delta }] : [];
    }
    case 'tool_execution_start':
      return [
        {
          type: 'tool-start',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
        },
      ];
    case 'tool_execution_update': {
      const update = progressSchema.safeParse(
        (event.partialResult as { details?: unknown } | undefined)?.details,
      );
      if (!update.success) return [];
      const { done, total, target } = update.data.progress;
      return [
        {
          type: 'tool-progress',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          target,
          done,
          total,
        },
      ];
    }
    case 'tool_execution_end': {
      const raw = (event.result as { details?: unknown })?.details;
      const images = event.toolName === 'read' ? imagesSchema.safeParse(raw) : undefined;
      // Only a saving tool's details carry these fields: the others need no parse (a read's
      // details hold the whole window's facts).
      const saving =
        typeof raw === 'object' && raw !== null && ('operationId' in raw || 'receipts' in raw);
      const details = saving ? toolDetailsSchema.safeParse(raw) : undefined;
      const operationId = details?.success ? details.data.operationId : undefined;
      const receipts = details?.success ? details.data.receipts : undefined;
      const diffs = details?.success ? details.data.diffs : undefined;
      return [
        {
          type: 'tool-end',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          isError: event.isError,
          ...(operationId ? { operationId } : {}),
          ...(receipts ? { receipts } : {}),
          ...(diffs?.length ? { diffs } : {}),
          ...(images?.success ? { images: images.data.document.images } : {}),
          ...(event.isError ? { error: errorOfResult(event.result) } : {}),
        },
      ];
    }
    case 'auto_retry_start':
      return [
        {
          type: 'retry',
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          delayMs: event.delayMs,
          reason: event.errorMessage,
        },
      ];
    case 'compaction_start':
      return [{ type: 'compaction', phase: 'start' }];
    case 'compaction_end':
      return [
        {
          type: 'compaction',
          phase: 'end',
          ...(event.result
            ? {
                tokensBefore: event.result.tokensBefore,
                ...(event.result.estimatedTokensAfter === undefined
                  ? {}
                  : { estimatedTokensAfter: event.result.estimatedTokensAfter }),
              }
            : {}),
        },
      ];
    default:
      return [];
  }
}
