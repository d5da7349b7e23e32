/**
 * A tiny OpenAI-compatible endpoint on loopback for the tests: `POST /v1/chat/completions`
 * answered from a script, one step per request (a text, or tool calls); every request body is
 * kept. Nothing leaves the machine, no model runs. A request with no step left gets a 500.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the model: words, or calls of tools by name with their arguments. */
export type Step = { text: string } | { tools: { name: string; args: unknown }[] };

/** A message of a request, as the chat completions protocol has it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
}

export interface FakeModel {
  /** Put this as `baseURL` of the plugin. */
  baseURL: string;
  /** What the bot sent, one per call. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function fakeModel(script: Step[]): Promise<FakeModel> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest);
      const step = script.shift();
      if (!step) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no scripted answer left' } }));
        return;
      }
      const n = requests.length;
      const toolCalls =
        'tools' in step
          ? step.tools.map((t, i) => ({
              id: `call_${n}_${i}`,
              type: 'function',
              function: { name: t.name, arguments: JSON.stringify(t.args) },
            }))
          : undefined;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'fake-model',
          choices: [
            {
              index: 0,
              logprobs: null,
              finish_reason: toolCalls ? 'tool_calls' : 'stop',
              message: {
                role: 'assistant',
                content: 'text' in step ? step.text : null,
                refusal: null,
                ...(toolCalls ? { tool_calls: toolCalls } : {}),
              },
            },
          ],
          usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
