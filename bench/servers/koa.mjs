// Bare Koa + @koa/bodyparser JSON POST: the baseline of the REST bench (bench/rest.ts).
// Run by the bench as its own process: `node bench/servers/koa.mjs <port>`.
import process from 'node:process';
import { createServer } from 'node:http';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { announce, onStop } from './announce.mjs';

const app = new Koa();
app.use(bodyParser({ enableTypes: ['json'], jsonLimit: 1024 * 1024 }));
app.use((ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/api/v1/messages') return;
  const body = ctx.request.body;
  ctx.status = 202;
  ctx.body = { id: 'x', status: 'queued', chatId: body?.chatId ?? null };
});
const server = createServer(app.callback());
onStop(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => announce(server));
