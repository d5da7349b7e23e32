// Looking at a running container from outside: its logs, processes, state and HTTP answers.
import net from 'node:net';
import type { Podman } from './podman.js';

export async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export class ContainerProbe {
  constructor(
    private readonly podman: Podman,
    readonly name: string,
  ) {}

  static async fetchJson(url: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: await res.json() };
  }

  json(url: string): Promise<{ status: number; body: unknown }> {
    return ContainerProbe.fetchJson(url);
  }

  async logs(): Promise<string> {
    const result = await this.podman.run(['logs', this.name]);
    return result.stdout + result.stderr;
  }

  async state(): Promise<{ running: boolean; exitCode: number; restarts: number }> {
    const out = await this.podman.ok([
      'inspect',
      '--format',
      '{{.State.Running}} {{.State.ExitCode}} {{.RestartCount}}',
      this.name,
    ]);
    const [running, exitCode, restarts] = out.trim().split(' ');
    return { running: running === 'true', exitCode: Number(exitCode), restarts: Number(restarts) };
  }

  /** Waits for a log line; fails with the logs when the container exits first or time is up. */
  async waitForLog(pattern: RegExp, timeoutMs: number): Promise<void> {
    await this.#wait(
      async () => pattern.test(await this.logs()),
      `log ${String(pattern)}`,
      timeoutMs,
    );
  }

  /** Waits for a process of the container whose command line matches. */
  async waitForProcess(pattern: RegExp, timeoutMs: number): Promise<void> {
    await this.#wait(
      async () => pattern.test((await this.podman.run(['top', this.name, 'args'])).stdout),
      `process ${String(pattern)}`,
      timeoutMs,
    );
  }

  async #wait(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await check()) return;
      const { running, exitCode } = await this.state();
      if (!running || Date.now() > deadline) {
        const why = running ? `not seen in ${timeoutMs} ms` : `the container exited (${exitCode})`;
        throw new Error(
          `${this.name}: ${what}: ${why}; its logs:\n${(await this.logs()).slice(-6000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
