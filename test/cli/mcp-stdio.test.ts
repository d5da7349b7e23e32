// `wakit mcp`: the bot as an MCP server on stdio, in a real child process (bin/wakit.js) on the
// simulator engine, driven by the official SDK's client as a desktop agent drives it: it starts
// the bot from the config, lists the tools, a send reaches the simulated phone once (seen through
// the simulator's REST routes of the same child), bad input is a coded tool error; every log line
// goes to stderr (info level: one on stdout would break the protocol); closing stdin stops it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BotClient } from '../../src/index.js';
import { waitUntil } from '../helpers/wait-until.js';

const BIN = path.resolve('bin/wakit.js');
const TOKEN = 'mcp-stdio-test-token-0123456789abcdef';
const PHONE = '15550002222';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls an async check every 50 ms (a real child process: its own clock). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('wakit mcp (stdio, a real child process on the simulator)', function () {
  this.timeout(90_000);
  let dir: string;
  let url: string;
  let transport: StdioClientTransport;
  let client: Client;
  let stderr = '';
  const api = async (route: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return res.json();
  };
  const inbox = async (text: string) =>
    ((await api(`/api/v1/simulator/phones/${PHONE}/inbox`)) as { body: string }[]).filter(
      (m) => m.body === text,
    );

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-mcp-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await writeFile(
      path.join(dir, 'bot.config.json'),
      JSON.stringify({
        engine: { type: 'simulator', autoScanMs: 20, ackDelayMs: 5 },
        auth: { type: 'local', dataPath: './sessions' },
        clients: ['bot'],
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
        log: { level: 'info' },
        plugins: { rest: { port, tokens: [{ token: TOKEN, clients: ['*'] }] } },
      }),
    );
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '-c', path.join(dir, 'bot.config.json')],
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'desktop-agent', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  it('serves the tools, sends once to the phone, answers bad input with a code', async () => {
    const { tools } = await client.listTools();
    expect(tools).to.have.length(BotClient.capabilities.length + 14);
    const erase = tools.find((tool) => tool.name === 'chat_state_erase');
    expect(erase?.annotations).to.include({ destructiveHint: true, readOnlyHint: false });

    // the bot links by itself (autoScanMs); the clients resource shows it READY
    await eventually(async () => {
      const read = await client.readResource({ uri: 'wakit://clients' });
      const { clients } = JSON.parse((read.contents[0] as { text: string }).text) as {
        clients: { name: string; state: string }[];
      };
      return clients.some((c) => c.name === 'bot' && c.state === 'READY');
    });
    // a person writes to the bot; the agent answers through the tool
    await api(`/api/v1/simulator/phones/${PHONE}/messages`, { text: 'hello bot' });
    const text = 'an answer from the agent';
    const sent = await client.callTool({
      name: 'messages_send',
      arguments: { chatId: PHONE, content: text },
    });
    expect(sent.isError ?? false, JSON.stringify(sent)).to.equal(false);
    const { id } = sent.structuredContent as { id: string };
    await eventually(async () => (await inbox(text)).length > 0);
    await eventually(async () => {
      const status = await client.callTool({ name: 'messages_status', arguments: { id } });
      return ['sent', 'delivered', 'read'].includes(
        (status.structuredContent as { status: string }).status,
      );
    });
    expect(await inbox(text)).to.have.length(1);

    const bad = (await client.callTool({
      name: 'chats_get',
      arguments: { chatId: 'nobody' },
    })) as CallToolResult;
    expect(bad.isError).to.equal(true);
    expect((bad.structuredContent as { error: { code: string } }).error.code).to.equal(
      'INVALID_CHAT_ID',
    );
    expect((bad.content[0] as { text: string }).text).to.not.match(/\n\s+at /);
  });

  it('logs to stderr only and stops when the agent closes stdin', async () => {
    expect(stderr).to.include('MCP server on stdio');
    expect(stderr).to.match(/\[bot\] READY/);
    const pid = transport.pid;
    expect(pid).to.be.a('number');
    await client.close();
    await waitUntil(() => {
      try {
        process.kill(pid!, 0);
        return false;
      } catch {
        return true; // not reported: ESRCH is the answer (the process is gone)
      }
    }, 15_000);
    expect(stderr).to.include('Stopped.');
  });
});
