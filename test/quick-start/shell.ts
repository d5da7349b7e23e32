import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface RunResult {
  code: number;
  output: string;
}

/** The environment a person's shell would have: none of the npm_* variables of `npm test`. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return {
    ...env,
    // installs come from the npm cache first (the registry only for what it lacks)
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** Runs `command args` in `cwd` through a shell-less spawn; resolves with exit code and output. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Resolves with the output so far once it matches `pattern`; rejects at the deadline or exit. */
export function waitForOutput(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(output);
    };
    const timer = setTimeout(
      () => done(new Error(`no ${String(pattern)} in output:\n${output}`)),
      timeoutMs,
    );
    const onData = (data: Buffer) => {
      output += data.toString();
      if (pattern.test(output)) done();
    };
    const onExit = (code: number | null) =>
      done(new Error(`exited (${code}) before ${String(pattern)}:\n${output}`));
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', onExit);
  });
}

/** A shell code block of a Markdown file: the first ```sh block after `heading` that contains `marker`. */
export function shellBlock(markdown: string, heading: string, marker: string): string {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`no heading ${heading}`);
  for (const match of markdown.slice(start).matchAll(/```(sh|ts)\n([\s\S]*?)```/g)) {
    if (match[2]?.includes(marker)) return match[2];
  }
  throw new Error(`no code block with ${marker} after ${heading}`);
}
