import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { isWakitError } from '../errors/index.js';
import { checkConfig, printSchema } from './config-commands.js';
import { createProject, TEMPLATES } from './create.js';
import { describeError, processIo, type CliIo } from './io.js';
import { runBot } from './run.js';

const DEFAULT_CONFIG = 'bot.config.json';

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

/** Builds the `wakit` program; actions report their exit code through `setCode`. */
export function buildProgram(io: CliIo, setCode: (code: number) => void): Command {
  const program = new Command('wakit')
    .description('wakit: WhatsApp bots from one config file and plugins')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride()
    .showHelpAfterError();

  program
    .command('create')
    .description('create a bot project from a template')
    .argument('<dir>', 'directory to create (must be empty or absent)')
    .option('-t, --template <name>', `template: ${TEMPLATES.join(' | ')}`, 'basic')
    .option('--no-install', 'do not run npm install')
    .action(async (dir: string, opts: { template: string; install: boolean }) => {
      await createProject(dir, { template: opts.template, install: opts.install }, io);
      setCode(0);
    });

  const run = (dev: boolean) => async (opts: { config: string; autoScan?: string }) => {
    const bot = await runBot(
      {
        config: opts.config,
        dev,
        ...(opts.autoScan !== undefined ? { autoScanMs: Number(opts.autoScan) } : {}),
      },
      io,
    );
    setCode(await bot.done);
  };

  program
    .command('start')
    .description('run the bot on WhatsApp (QR codes in the terminal)')
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .action(run(false));

  program
    .command('dev')
    .description('run the bot on the simulator engine: clients link by themselves, no phone needed')
    .option('-c, --config <file>', 'config file', DEFAULT_CONFIG)
    .option('--auto-scan <ms>', 'delay before the simulator scans a QR code', '1000')
    .action(run(true));

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
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    printIssues(error, io);
    return 1;
  }
}

/** Entry of `bin/wakit.js`. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const code = await runCli(argv);
  process.exit(code);
}
