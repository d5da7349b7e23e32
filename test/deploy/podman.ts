// Rootful podman (Debian's podman 4.3 + runc) with everything in a folder of the image test's own:
// storage, run state, configuration and the Docker-API socket that docker-compose talks to. The
// machines that run the tests refuse podman's default ulimits, so nofile/nproc are set explicitly.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Runs a program; resolves with its exit code and output whatever the code (timeouts: 124). */
export function exec(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: options.env ?? process.env,
        cwd: options.cwd,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code =
          error === null
            ? 0
            : (error as { killed?: boolean }).killed
              ? 124
              : Number(error.code ?? 1);
        resolve({ code: Number.isInteger(code) ? code : 1, stdout, stderr });
      },
    );
  });
}

/** A program's output, or an error with its command, code and output. */
export async function execOk(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<string> {
  const result = await exec(file, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${file} ${args.join(' ')} exited with ${result.code}:\n${result.stderr.slice(-4000)}\n${result.stdout.slice(-2000)}`,
    );
  }
  return result.stdout;
}

export interface Podman {
  readonly stateDir: string;
  /** `--ulimit` flags with limits this machine accepts (it refuses podman's defaults). */
  readonly ulimitFlags: string[];
  /** Environment that points podman (and its API service) at the test's own configuration. */
  readonly env: NodeJS.ProcessEnv;
  run(args: readonly string[], options?: RunOptions): Promise<Result>;
  ok(args: readonly string[], options?: RunOptions): Promise<string>;
  /** `podman system service` on a socket of the test's own: a Docker API for docker-compose. */
  serve(): Promise<{ host: string; stop(): Promise<void> }>;
}

/** Why podman cannot run here, in words, or undefined when it can. */
export async function podmanUnusable(): Promise<string | undefined> {
  if (process.platform !== 'linux')
    return `the image test needs Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return 'the image test runs rootful podman and needs root (CI runs as root; run `sudo npm test`)';
  }
  for (const tool of ['podman', 'runc', 'debootstrap', 'docker-compose']) {
    const found = await exec('sh', ['-c', `command -v ${tool}`]);
    if (found.code !== 0) {
      return `${tool} is not installed (apt-get install -y podman runc debootstrap docker-compose; scripts/ensure-chromium.sh does it as root)`;
    }
  }
  return undefined;
}

async function hardLimit(flag: '-Hn' | '-Hu'): Promise<number> {
  const out = (await execOk('bash', ['-c', `ulimit ${flag}`])).trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

export async function createPodman(stateDir: string): Promise<Podman> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const nofile = Math.min(await hardLimit('-Hn'), 65_536);
  const nproc = Math.min(await hardLimit('-Hu'), 4_096);
  const ulimits = [`nofile=${nofile}:${nofile}`, `nproc=${nproc}:${nproc}`];
  const storageConf = path.join(stateDir, 'storage.conf');
  const containersConf = path.join(stateDir, 'containers.conf');
  await writeFile(
    storageConf,
    [
      '[storage]',
      `driver = "${process.env.WAKIT_IMAGE_TEST_STORAGE_DRIVER ?? 'overlay'}"`,
      `graphroot = "${path.join(stateDir, 'storage')}"`,
      `runroot = "${path.join(stateDir, 'run')}"`,
      '',
    ].join('\n'),
  );
  await writeFile(
    containersConf,
    [
      '[containers]',
      `default_ulimits = [${ulimits.map((u) => `"${u}"`).join(', ')}]`,
      '[engine]',
      // runc, not podman's default: Debian installs crun with podman, and crun refuses this
      // machine's hybrid cgroups ("crun: cgroups in hybrid mode not supported")
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      `tmp_dir = "${path.join(stateDir, 'tmp')}"`,
      '',
    ].join('\n'),
  );
  const env = {
    ...process.env,
    CONTAINERS_STORAGE_CONF: storageConf,
    CONTAINERS_CONF: containersConf,
  };
  const run = (args: readonly string[], options: RunOptions = {}) =>
    exec('podman', args, { ...options, env: { ...env, ...options.env } });
  const ok = (args: readonly string[], options: RunOptions = {}) =>
    execOk('podman', args, { ...options, env: { ...env, ...options.env } });
  return {
    stateDir,
    ulimitFlags: ulimits.flatMap((u) => ['--ulimit', u]),
    env,
    run,
    ok,
    async serve() {
      const socket = path.join(stateDir, 'podman.sock');
      const host = `unix://${socket}`;
      await rm(socket, { force: true }); // a socket left by an earlier run would be taken for this one
      const child: ChildProcess = spawn('podman', ['system', 'service', '--time=0', host], {
        env,
        stdio: 'ignore',
      });
      const deadline = Date.now() + 15_000;
      while (!existsSync(socket)) {
        if (child.exitCode !== null)
          throw new Error(`podman system service exited ${child.exitCode}`);
        if (Date.now() > deadline) throw new Error(`podman system service: no ${socket} in 15 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return {
        host,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        },
      };
    },
  };
}
