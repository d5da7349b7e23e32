/**
 * `wakit mcp`: the bot as an MCP server on stdin/stdout, for a desktop agent that starts it as a
 * command (Claude Desktop's `mcpServers`). It runs the bot from bot.config.json as `wakit start`
 * does (it does not attach to a running one: a running bot serves `POST /api/v1/mcp` instead) and
 * adds the MCP plugin (plugins/mcp/, loaded by file). Stdout is the protocol channel: the SDK's
 * logs, the CLI's lines and anything else written to `process.stdout` go to stderr. The bot stops
 * (queued sends drain, sessions kept) when the agent closes stdin, or on SIGINT/SIGTERM.
 */
import { Writable } from 'node:stream';
import { importMcpModule } from '../plugins/loader.js';
import type { Plugin } from '../plugins/types.js';
import type { CliIo } from './io.js';
import { runBot } from './run.js';

export interface McpCommandOptions {
  config: string;
  /** The client of tools called without `client` (default: the first configured client). */
  client?: string;
  /** Time queued sends get to go out on shutdown. */
  drainTimeoutMs?: number;
}

type StdioPluginFactory = (options: {
  input: NodeJS.ReadableStream;
  output: Writable;
  defaultClient?: string;
}) => Plugin;

/** The process's stdout for the protocol only; every other write to it goes to stderr. */
function takeStdout(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: unknown, done: () => void) => boolean;
  const protocol = new Writable({
    write(chunk, _encoding, done) {
      write(chunk, () => done());
    },
  });
  const toStderr = process.stderr.write.bind(process.stderr);
  stdout.write = toStderr;
  return protocol;
}

/** Runs the bot with the MCP server on stdio; resolves with the exit code once it stopped. */
export async function runMcp(options: McpCommandOptions, io: CliIo): Promise<number> {
  const output = takeStdout();
  const module = await importMcpModule();
  const factory = module.stdioMcpPlugin as StdioPluginFactory;
  const plugin = factory({
    input: process.stdin,
    output,
    ...(options.client !== undefined ? { defaultClient: options.client } : {}),
  });
  const bot = await runBot(
    {
      config: options.config,
      dev: false,
      command: 'mcp',
      logTo: 'stderr',
      plugins: [plugin],
      ...(options.drainTimeoutMs !== undefined ? { drainTimeoutMs: options.drainTimeoutMs } : {}),
    },
    { out: (text) => io.err(text), err: (text) => io.err(text) },
  );
  // the agent closed the channel: stop as on SIGTERM
  process.stdin.once('end', () => void bot.stop());
  return bot.done;
}
