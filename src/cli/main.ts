import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { isWakitError, WakitError } from '../errors/index.js';
import { checkConfig, printSchema } from './config-commands.js';
import { createProject, TEMPLATES } from './create.js';
import { runDoctor } from './doctor.js';
import { describeError, processIo, type CliIo } from './io.js';
import { packageRoot } from './paths.js';
import { runMcp } from './mcp-command.js';
import { runBot } from './run.js';
import { runTests } from './test-command.js';
import { watchAndRestart } from './watch.js';

const DEFAULT_CONFIG = 'bot.config.json';

const EXAMPLES = `
Examples:
  $ npm create wakit@latest my-bot         make a bot project (or: wakit create my-bot)
  $ wakit dev                              run it on the simulator: links by itself, chat in the terminal
  $ wakit dev --port 3001 --watch          REST plugin on port 3001, restart when plugins or config change
  $ wakit start -c bot.config.json         run it on WhatsApp: scan the QR code in the terminal
  $ wakit mcp -c bot.config.json           the bot as tools for an AI agent (MCP on stdio)
  $ wakit test                             run every test/**/*.test.ts of the project
  $ wakit config check                     list every problem of bot.config.json
  $ wakit doctor --client bot              can this machine run the config? and the client's build

Docs: node_modules/wakitjs/docs/ and https://www.npmjs.com/package/wakitjs`;

/** The version of the installed wakitjs package. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** An EADDRINUSE anywhere in the cause chain, as ADDRESS_IN_USE with the port and what to do. */
export function addressInUse(error: unknown): WakitError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 10; depth++) {
    const errno = e as NodeJS.ErrnoException & { port?: number; address?: string };
    if (errno.code === 'EADDRINUSE') {
      const where = errno.port !== undefined ? `${errno.address ?? ''}:${errno.port}` : 'the port';
      return new WakitError(
        'ADDRESS_IN_USE',
        `Port ${where} is already in use by another program: stop it, or pick another port ` +
          '(wakit dev --port 3001, or plugins.rest.port in bot.config.json)',
        { details: { port: errno.port }, cause: error },
      );
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function printIssues(error: unknown, io: CliIo): void {
  io.err(`wakit: ${describeError(error)}`);
  if (
    isWakitError(error) &&
    error.issues?.length &&
    !error.message.includes(error.issues[0]?.message ?? '\0')
  ) {
    for (const issue of error.issues) io.err(`  - ${issue.path || '(root)'}: ${issue.message}`);
  }
}

function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new WakitError('VALIDATION_FAILED', `--port ${value}: use a port number 0-65535`);
  }
  return port;
}

/** Builds the `wakit` program; actions report their exit code through `setCode`. */
export function buildProgram(
  io: CliIo,
  setCode: (code: number) => void,
  argv: readonly string[] = [],
): Command {
  const program = new Command('wakit')
    .description('wakit: WhatsApp bots from one config file and plugins')
    .version(cliVersion(), '-v, --version', 'print the wakit version')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', EXAMPLES);

  program
    .command('create')
    .description('create a bot project from a template')
    .argument('<dir>', 'directory to create (must be empty or absent, outside other npm packages)')
    .option('-t, --template <name>', `template: ${TEMPLATES.join(' | ')}`, 'basic')
    .option('--no-install', 'do not run npm install')
    .option('--inside-package', 'allow creating the bot inside another npm package (a monorepo)')
    .action(
      async (
        dir: string,
        opts: { template: string; install: boolean; insidePackage?: boolean },
      ) => {
        setCode(
          await createProject(
            dir,
            {
              template: opts.template,
              install: opts.install,
              insidePackage: opts.insidePackage === true,
            },
            io,
          ),
        );
      },
    );

  const run =
    (dev: boolean) =>
    async (opts: { config: string; autoScan?: string; port?: string; watch?: boolean }) => {
      if (opts.watch) {
        const args = argv.filter((a) => a !== '--watch' && a !== '-w');
        setCode(await watchAndRestart({ config: opts.config, args }, io));
        return;
      }
      const bot = await runBot(
        {
          config: opts.config,
          dev,
          ...(opts.autoScan !== undefined ? { autoScanMs: Number(opts.autoScan) } : {}),
          ...(opts.port !== undefined ? { port: portOption(opts.port) } : {}),
        },
        io,
      );
      setCode(await bot.done);
    };

  program
    .command('start')
    .description('run the bot on WhatsApp (QR codes in the terminal)')
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .option('-p, --port <port>', 'port of the REST plugin (overrides plugins.rest.port)')
    .action(run(false));

  program
    .command('dev')
    .description(
      'run the bot on the simulator engine: clients link by themselves, no phone needed; ' +
        'type in the terminal to chat with the bot as a simulated contact',
    )
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .option('-p, --port <port>', 'port of the REST plugin (overrides plugins.rest.port)')
    .option('-w, --watch', 'restart when a plugin file or the config changes')
    .option('--auto-scan <ms>', 'delay before the simulator scans a QR code', '1000')
    .action(run(true));

  program
    .command('mcp')
    .description(
      'serve the bot to an AI agent over MCP on stdin/stdout (runs the bot from the config, ' +
        'like start; logs go to stderr): docs/mcp.md',
    )
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .option('--client <name>', 'the client of tools called without one (default: the first)')
    .action(async (opts: { config: string; client?: string }) => setCode(await runMcp(opts, io)));

  program
    .command('test')
    .description('run every *.test.ts file under the folder with Node’s test runner and tsx')
    .argument('[dir]', 'test folder', 'test')
    .action(async (dir: string) => setCode(await runTests(dir, io)));

  program
    .command('doctor')
    .description('check whether this machine can run the config (and, with --client, its build)')
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .option('--client <name>', 'also start this linked client and probe its WhatsApp Web build')
    .option('--timeout <ms>', 'time the client may take to become READY', '60000')
    .action(async (opts: { config: string; client?: string; timeout: string }) =>
      setCode(
        await runDoctor(
          {
            config: opts.config,
            ...(opts.client ? { client: opts.client } : {}),
            timeoutMs: Number(opts.timeout),
          },
          io,
        ),
      ),
    );

  const config = program.command('config').description('check or describe bot.config.json');
  config
    .command('check')
    .description('validate the config file and its plugins; print every problem')
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .action(async (opts: { config: string }) => setCode(await checkConfig(opts.config, io)));
  config
    .command('schema')
    .description('print the JSON Schema of the config file')
    .action(() => setCode(printSchema(io)));

  return program;
}

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let code = 0;
  const program = buildProgram(
    io,
    (c) => {
      code = c;
    },
    argv,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    printIssues(addressInUse(error) ?? error, io);
    return 1;
  }
}

/** Entry of `bin/wakit.js`. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const code = await runCli(argv);
  process.exit(code);
}
