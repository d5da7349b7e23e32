/**
 * A local OpenAI-compatible endpoint for the ai plugin's tests: `POST /v1/chat/completions`
 * answered by a script, one step per request; every request body is kept. Speech-to-text too:
 * `POST /v1/audio/transcriptions` (multipart, as the client sends it) answered from `transcripts`.
 * Nothing leaves the machine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type OpenAI from 'openai';

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type Transcription = OpenAI.Audio.Transcription;
export type ChatRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** One scripted answer: words (held until a promise settles), tool calls, an HTTP error, or none. */
export type Step =
  | { text: string; tokens?: number; hold?: Promise<void> }
  | { tools: { name: string; args: unknown }[]; text?: string; tokens?: number }
  | { status: number }
  | { hang: true };

export interface FakeModel {
  baseURL: string;
  requests: ChatRequest[];
  /** Steps not yet used; a request with none left gets a 500. */
  script: Step[];
  /** Answers of `/v1/audio/transcriptions`, in order: a text, or an HTTP status; none left: 500. */
  transcripts: (string | { status: number })[];
  /** The multipart bodies of the transcription requests (latin1 text: fields and file bytes). */
  transcriptions: string[];
  close(): Promise<void>;
}

function completion(
  step: { text?: string; tools?: { name: string; args: unknown }[] },
  n: number,
  tokens: number,
): Completion {
  const toolCalls: ToolCall[] | undefined = step.tools
    ? step.tools.map((t, i) => ({
        id: `call_${n}_${i}`,
        type: 'function',
        function: { name: t.name, arguments: JSON.stringify(t.args) },
      }))
    : undefined;
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: step.text ?? null,
          refusal: null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
      },
    ],
    usage: { prompt_tokens: tokens - 1, completion_tokens: 1, total_tokens: tokens },
  };
}

export async function fakeModel(script: Step[] = []): Promise<FakeModel> {
  const requests: ChatRequest[] = [];
  const hanging = new Set<() => void>();
  const model: FakeModel = {
    baseURL: '',
    requests,
    script,
    transcripts: [],
    transcriptions: [],
    close: async () => {
      for (const end of hanging) end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
        model.transcriptions.push(Buffer.concat(chunks).toString('latin1'));
        const next = model.transcripts.shift() ?? { status: 500 };
        const body: Transcription | { error: { message: string } } =
          typeof next === 'string' ? { text: next } : { error: { message: 'scripted failure' } };
        res.writeHead(typeof next === 'string' ? 200 : next.status, {
          'content-type': 'application/json',
        });
        res.end(JSON.stringify(body));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest);
      const step = model.script.shift() ?? { status: 500 };
      if ('hang' in step) {
        const end = () => res.destroy();
        hanging.add(end);
        res.on('close', () => hanging.delete(end));
        return;
      }
      if ('status' in step) {
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        return;
      }
      const n = requests.length;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion(step, n, step.tokens ?? 10)));
      };
      // `hold`: the answer waits for the test (something happens while the model thinks)
      if ('hold' in step && step.hold) void step.hold.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
}

/** After each test: the fixture cleaned up, then the model server closed (those it started). */
export async function cleanUp(
  fx: { cleanup(): Promise<void> } | undefined,
  model: FakeModel | undefined,
): Promise<void> {
  await fx?.cleanup();
  await model?.close();
}
