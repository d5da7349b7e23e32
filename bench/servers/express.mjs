// Bare Express 5 `express.json()` POST: the HTTP stack of the peer gateways (wwebjs-api,
// wppconnect-server, Evolution API), as a baseline of the REST bench (bench/rest.ts).
// Run by the bench as its own process: `node bench/servers/express.mjs <port>`.
import process from 'node:process';
import { createServer } from 'node:http';
import express from 'express';
import { announce, onStop } from './announce.mjs';

const app = express();
app.post('/api/v1/messages', express.json({ limit: '1mb' }), (req, res) => {
  res.status(202).json({ id: 'x', status: 'queued', chatId: req.body?.chatId ?? null });
});
const server = createServer(app);
onStop(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => announce(server));
