import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** One scripted answer of the endpoint. */
export type EndpointReply =
  | { kind: 'text'; text: string; usage?: { prompt: number; completion: number } }
  | { kind: 'status'; status: number; message: string; headers?: Record<string, string> };

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1 that answers from a script, registered in Pi's
 * `models.json` like any local server: provider `test`, models `plain` and `thinker` (reasoning).
 */
export interface OpenAiEndpoint {
  /** The replies still to give, in order (the last one repeats). */
  replies: EndpointReply[];
  /** Every request body received, parsed. */
  readonly requests: Record<string, unknown>[];
  /** The port. */
  readonly port: number;
  /** Writes `<agentDir>/models.json`; `port` overrides the endpoint's (a closed port: refused). */
  configure(agentDir: string, port?: number): void;
  /** Stops the server. */
  close(): Promise<void>;
}

function chunk(delta: Record<string, string>, finish: string | null, usage?: object): string {
  const choice = { index: 0, delta, finish_reason: finish };
  const body = {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [choice],
  };
  return `data: ${JSON.stringify(usage ? { ...body, usage } : body)}\n\n`;
}

function answer(response: ServerResponse, reply: EndpointReply): void {
  if (reply.kind === 'status') {
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify({ error: { message: reply.message } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(chunk({ role: 'assistant', content: reply.text }, null));
  const usage = reply.usage && {
    prompt_tokens: reply.usage.prompt,
    completion_tokens: reply.usage.completion,
    total_tokens: reply.usage.prompt + reply.usage.completion,
  };
  response.write(chunk({}, 'stop', usage));
  response.end('data: [DONE]\n\n');
}

/** Starts the endpoint. */
export async function startOpenAiEndpoint(replies: EndpointReply[]): Promise<OpenAiEndpoint> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (text: string) => {
      body += text;
    });
    request.on('end', () => {
      requests.push(JSON.parse(body) as Record<string, unknown>);
      const reply = endpoint.replies.length > 1 ? endpoint.replies.shift() : endpoint.replies[0];
      if (reply) answer(response, reply);
      else response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint: OpenAiEndpoint = {
    replies,
    requests,
    port,
    configure(agentDir, portOverride) {
      const providers = {
        test: {
          baseUrl: `http://127.0.0.1:${portOverride ?? port}/v1`,
          api: 'openai-completions',
          apiKey: 'test-key',
          models: [{ id: 'plain' }, { id: 'thinker', reasoning: true }],
        },
      };
      writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers }, null, 2));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return endpoint;
}
