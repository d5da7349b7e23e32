// An OpenAI-compatible chat-completions endpoint that answers at once (bench/ai.ts): the model's
// own time is zero, so what a turn takes beyond this server's round trip is wakit's.
// Run by the bench as its own process: `node bench/servers/model.mjs <port>`.
import process from 'node:process';
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { announce, onStop } from './announce.mjs';

let n = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const last = body.messages?.at(-1)?.content ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${++n}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            logprobs: null,
            message: { role: 'assistant', content: `echo ${last}`, refusal: null },
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
      }),
    );
  });
});
onStop(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => announce(server));
