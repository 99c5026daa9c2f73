import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The model id Pi knows the scripted endpoint by (`provider/id`). */
export const SCRIPTED_MODEL = 'script/tools';

/** One tool call the scripted model makes: a tool's name and its arguments. */
export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One answer of the scripted model: tool calls (all in one reply), or text. */
export type ScriptedStep = { calls: ScriptedCall[] } | { text: string };

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1 that answers each request with the next step of
 * its script (a reply of tool calls, or text), and "Done." once the script is used up: a model an
 * attacker steers, as a prompt injection would, without any timing.
 */
export interface ScriptedModel {
  /** Appends steps to the script. */
  script(...steps: ScriptedStep[]): void;
  /** The `messages` of every request received, oldest first. */
  readonly requests: unknown[][];
  /** Writes `<agentDir>/models.json` naming this endpoint as provider `script`, model `tools`. */
  configure(agentDir: string): void;
  close(): Promise<void>;
}

const BASE = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'tools' };

function send(response: ServerResponse, delta: Record<string, unknown>, finish: string): void {
  const chunk = (body: Record<string, unknown>, reason: string | null) =>
    `data: ${JSON.stringify({ ...BASE, choices: [{ index: 0, delta: body, finish_reason: reason }] })}\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(chunk({ role: 'assistant', ...delta }, null));
  response.write(chunk({}, finish));
  response.end('data: [DONE]\n\n');
}

/** Starts the endpoint. */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const steps: ScriptedStep[] = [];
  const requests: unknown[][] = [];
  let calls = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (text: string) => {
      body += text;
    });
    request.on('end', () => {
      requests.push((JSON.parse(body) as { messages?: unknown[] }).messages ?? []);
      const step = steps.shift() ?? { text: 'Done.' };
      if ('text' in step) {
        send(response, { content: step.text }, 'stop');
        return;
      }
      const toolCalls = step.calls.map((call, index) => ({
        index,
        id: `call_${++calls}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
      send(response, { tool_calls: toolCalls }, 'tool_calls');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    script: (...more) => {
      steps.push(...more);
    },
    requests,
    configure(agentDir) {
      const providers = {
        script: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: 'openai-completions',
          apiKey: 'test-key',
          models: [{ id: 'tools', input: ['text'] }],
        },
      };
      writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers }, null, 2));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
