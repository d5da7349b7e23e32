// What the image tests share: the image, built once per test process with rootful podman (the
// base pulled, or a stand-in made, first), containers run under Docker's default seccomp profile
// and removed afterwards, and a bot as `npm create wakit` makes it.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dockerfileBase, ensureBaseImage } from './base-image.js';
import { createPodman, podmanUnusable, type Podman } from './podman.js';
import { ContainerProbe } from './probe.js';

export const REPO = path.resolve('.');
const STATE_DIR = process.env.WAKIT_IMAGE_TEST_DIR ?? '/var/tmp/wakit-image-test';
/** seccomp/default.json of moby/profiles at 3c28324314729dbade8287e868eef6338c42807a, verbatim. */
const SECCOMP = path.resolve('test/deploy/fixtures/moby-seccomp-default.json');
export const IMAGE = 'localhost/wakit-image-test:latest';
export const TOKEN = 'image-test-token-0123456789abcdef';
/** The image's user and group (docs/deploy.md). */
export const UID = 10001;
/** What the tests give a container to stop: compose.yaml's stop_grace_period. */
export const GRACE_S = 30;
/** A cold build takes 2-3 min on an idle 2-core machine, 15 when it is shared and busy. */
export const IMAGE_TEST_TIMEOUT_MS = 45 * 60_000;

export interface BuiltImage {
  podman: Podman;
  /** The base image of the Dockerfile, as it is here (present, pulled or a stand-in). */
  base: string;
  /** Where the time went, for the test output. */
  timings: string[];
}

let built: Promise<BuiltImage> | undefined;

/** The image, built once per process; fails saying exactly why when podman cannot run here. */
export function builtImage(): Promise<BuiltImage> {
  built ??= build();
  return built;
}

async function build(): Promise<BuiltImage> {
  const unusable = await podmanUnusable();
  if (unusable) throw new Error(`the image test cannot run: ${unusable}`);
  const podman = await createPodman(STATE_DIR);
  const info = await podman.run(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.code !== 0) throw new Error(`the image test cannot run: podman info: ${info.stderr}`);
  const timings: string[] = [];

  const base = await ensureBaseImage(podman, await dockerfileBase(path.join(REPO, 'Dockerfile')));
  timings.push(`base ${base.image}: ${(base.ms / 1000).toFixed(0)} s (${base.how})`);
  // npm inside the build must reach the registry over TLS (this network re-signs it): said
  // plainly here rather than as an npm error deep in a long build
  const network = await podman.run(
    [
      'run',
      '--rm',
      ...podman.ulimitFlags,
      base.image,
      'node',
      '-e',
      "fetch('https://registry.npmjs.org/better-sqlite3', { method: 'HEAD' }).then((r) => process.exit(r.ok ? 0 : 2))",
    ],
    { timeoutMs: 60_000 },
  );
  if (network.code !== 0) {
    throw new Error(
      `containers cannot reach the npm registry over TLS (exit ${network.code}); the build needs it: ${network.stderr.slice(-1500)}`,
    );
  }

  const started = Date.now();
  await podman.ok(
    [
      'build',
      '--format',
      'docker', // keeps HEALTHCHECK
      '--pull=never',
      '--jobs=2', // the runtime stage's apt-get runs while the build stage compiles
      ...podman.ulimitFlags,
      '-t',
      IMAGE,
      '-f',
      path.join(REPO, 'Dockerfile'),
      REPO,
    ],
    { timeoutMs: 35 * 60_000 },
  );
  timings.push(`build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { podman, base: base.image, timings };
}

/** Containers and volumes of one test file, removed by `removeAll()`. */
export class Containers {
  readonly #names: string[] = [];
  readonly #volumes: string[] = [];

  constructor(private readonly podman: Podman) {}

  /** `podman run -d` of the image under Docker's default seccomp profile, as its own user. */
  async run(name: string, args: string[]): Promise<ContainerProbe> {
    await this.podman.run(['rm', '-f', '-v', '-t', '0', name]);
    this.#names.push(name);
    await this.podman.ok([
      'run',
      '-d',
      '--name',
      name,
      '--security-opt',
      `seccomp=${SECCOMP}`,
      ...this.podman.ulimitFlags,
      ...args,
      IMAGE,
    ]);
    return new ContainerProbe(this.podman, name);
  }

  /** A fresh named volume. */
  async volume(name: string): Promise<string> {
    await this.podman.run(['volume', 'rm', '-f', name]);
    this.#volumes.push(name);
    return name;
  }

  async removeAll(): Promise<void> {
    for (const name of this.#names.splice(0)) {
      await this.podman.run(['rm', '-f', '-v', '-t', '0', name]);
    }
    for (const name of this.#volumes.splice(0)) await this.podman.run(['volume', 'rm', '-f', name]);
  }
}

/** A bot as `npm create wakit` makes it: package.json, plugins/hello.ts importing wakitjs. */
export async function scaffoldBot(dir: string, engine: object, rest = true): Promise<void> {
  await mkdir(path.join(dir, 'plugins'), { recursive: true });
  await cp(path.join(REPO, 'templates/basic/package.json'), path.join(dir, 'package.json'));
  await cp(path.join(REPO, 'templates/basic/plugins'), path.join(dir, 'plugins'), {
    recursive: true,
  });
  const config = {
    engine,
    auth: { type: 'local' },
    clients: ['bot'],
    log: { level: 'info' },
    plugins: {
      ...(rest ? { rest: { host: '0.0.0.0', tokens: [{ token: '${WAKIT_REST_TOKEN}' }] } } : {}),
      './plugins/hello.ts': { greeting: 'Hello' },
    },
  };
  await writeFile(path.join(dir, 'bot.config.json'), JSON.stringify(config, null, 2));
}

export interface ImageFixture {
  built: BuiltImage;
  podman: Podman;
  containers: Containers;
  /** A folder of the test file's own (bots, build contexts), removed afterwards. */
  work: string;
  /** Where this file's time went, printed after it with the build's (once per process). */
  timings: string[];
}

let buildTimingsShown = false;

/** Mocha hooks of an image test file: the built image before, containers and folder removed after. */
export function imageFixture(): ImageFixture {
  const fx = { timings: [] as string[] } as ImageFixture;
  before(async () => {
    fx.built = await builtImage();
    fx.podman = fx.built.podman;
    fx.containers = new Containers(fx.podman);
    fx.work = await mkdtemp(path.join(os.tmpdir(), 'wakit-image-'));
  });
  after(async () => {
    await fx.containers?.removeAll();
    if (fx.work) await rm(fx.work, { recursive: true, force: true });
    const shown = buildTimingsShown || !fx.built ? [] : fx.built.timings;
    if (fx.built) buildTimingsShown = true;
    const all = [...shown, ...fx.timings];
    if (all.length > 0) console.log(`      image test timings: ${all.join('; ')}`);
  });
  return fx;
}
