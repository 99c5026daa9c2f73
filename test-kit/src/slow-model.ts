import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The model id Pi knows the test endpoint by (`provider/id`). */
export const SLOW_MODEL = 'test/slow';

/** The citation the endpoint answers a request naming "cite" with: of a note that does not exist. */
const CITATION_OF_NOTHING = '[notes/missing.md:3 "every six hours"]';

/** What the endpoint says when it refuses a request. */
export const REFUSAL = 'The test model refuses this request.';

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1, configured in Pi's `models.json` like any local
 * server (Ollama, vLLM): the honest way to have a run that stays active until it is cancelled.
 * A request whose last message contains "wait" is held open (no tokens) while `holding` is true;
 * a request asking to "look first" reads notes/a.md (a tool call), then is held the same way;
 * one whose last message contains "refuse" is refused as a bad request (HTTP 400, which Pi does
 * not retry); one naming "cite" is answered with a citation of a note that does not exist; every
 * other request is answered "Hello from the test model.".
 */
export interface SlowModel {
  /** Whether "wait" requests are held open. */
  holding: boolean;
  /** Resolves when the next held request has arrived (the run is waiting on the model). */
  nextHeld(): Promise<void>;
  /** How many held requests the client closed (Pi aborting the model call). */
  readonly aborted: number;
  /** The `messages` of every request received, oldest first. */
  readonly requests: unknown[][];
  /** Answers every held request now, like any other request. */
  release(): void;
  /** Writes `<agentDir>/models.json` naming this endpoint as provider `test`, model `slow`. */
  configure(agentDir: string): void;
  /** Stops the server (held requests are closed). */
  close(): Promise<void>;
}

function chunk(delta: Record<string, string>, finish: string | null): string {
  const choice = { index: 0, delta, finish_reason: finish };
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [choice] })}\n\n`;
}

/** Starts the endpoint. */
export async function startSlowModel(): Promise<SlowModel> {
  let waiters: (() => void)[] = [];
  let aborted = 0;
  const requests: unknown[][] = [];
  const open = new Set<ServerResponse>();
  const answer = (response: ServerResponse, cite: boolean) => {
    const content = cite
      ? `The notes say so. ${CITATION_OF_NOTHING}`
      : 'Hello from the test model.';
    response.write(chunk({ role: 'assistant', content }, null));
    response.write(chunk({}, 'stop'));
    response.end('data: [DONE]\n\n');
  };
  // A tool call reading `path`: the run's first step before the held one ("look first").
  const lookAt = (response: ServerResponse, path: string) => {
    const call = {
      index: 0,
      id: 'call_look',
      type: 'function',
      function: { name: 'read', arguments: JSON.stringify({ path }) },
    };
    const delta = { role: 'assistant', tool_calls: [call] };
    const choice = { index: 0, delta, finish_reason: null };
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'slow' };
    response.write(`data: ${JSON.stringify({ ...base, choices: [choice] })}\n\n`);
    response.write(chunk({}, 'tool_calls'));
    response.end('data: [DONE]\n\n');
  };
  const handle = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const messages = (JSON.parse(body) as { messages?: unknown[] }).messages ?? [];
    requests.push(messages);
    if (JSON.stringify(messages.at(-1)).includes('refuse')) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: REFUSAL, type: 'invalid_request_error' } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const last = JSON.stringify(messages.at(-1));
    const asked = messages.findLast((message) => (message as { role?: string }).role === 'user');
    const looking = JSON.stringify(asked ?? '').includes('look first');
    if (looking && !last.includes('"role":"tool"')) {
      lookAt(response, 'notes/a.md');
      return;
    }
    if (model.holding && (last.includes('wait') || looking)) {
      open.add(response);
      response.on('close', () => {
        if (!open.delete(response)) return; // Answered by release().
        aborted += 1;
      });
      for (const waiter of waiters.splice(0)) waiter();
      return;
    }
    answer(response, JSON.stringify(messages.at(-1)).includes('cite'));
    void request;
  };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (text: string) => {
      body += text;
    });
    request.on('end', () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const model: SlowModel = {
    holding: true,
    nextHeld: () => new Promise((resolve) => waiters.push(resolve)),
    get aborted() {
      return aborted;
    },
    requests,
    release() {
      for (const response of [...open]) {
        open.delete(response);
        answer(response, false);
      }
    },
    configure(agentDir) {
      const providers = {
        test: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: 'openai-completions',
          apiKey: 'test-key',
          models: [{ id: 'slow', input: ['text', 'image'] }],
        },
      };
      writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers }, null, 2));
    },
    async close() {
      waiters = [];
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return model;
}
