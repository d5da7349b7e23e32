// The base image the Dockerfile names: already there, else pulled, else (no registry here) a
// stand-in made by standin-base.sh. A stand-in tarball is kept per machine, keyed by a hash of
// the script and the image name, so one CI run makes it once; nothing relies on that cache.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execOk, type Podman } from './podman.js';

const STANDIN_SCRIPT = path.resolve('test/deploy/standin-base.sh');
const LABEL = 'wakit.image-test.standin';

/** The one base image every stage of the Dockerfile starts FROM. */
export async function dockerfileBase(dockerfile: string): Promise<string> {
  const text = await readFile(dockerfile, 'utf8');
  const bases = new Set(
    [...text.matchAll(/^FROM\s+(\S+)/gim)].map((m) => m[1] ?? '').filter(Boolean),
  );
  if (bases.size !== 1) {
    throw new Error(`expected one base image in ${dockerfile}: ${[...bases].join(', ')}`);
  }
  return [...bases][0] ?? '';
}

export interface BaseImage {
  image: string;
  /** present | pulled | stand-in from the cache | stand-in made now */
  how: string;
  ms: number;
}

export async function ensureBaseImage(podman: Podman, image: string): Promise<BaseImage> {
  const started = Date.now();
  const key = createHash('sha256')
    .update(await readFile(STANDIN_SCRIPT))
    .update(image)
    .digest('hex')
    .slice(0, 16);
  const done = (how: string): BaseImage => ({ image, how, ms: Date.now() - started });

  const inspected = await podman.run([
    'image',
    'inspect',
    '--format',
    `{{index .Labels "${LABEL}"}}`,
    image,
  ]);
  const label = inspected.stdout.trim();
  if (inspected.code === 0 && (label === key || label === '' || label === '<no value>')) {
    return done(label === key ? 'stand-in, already imported' : 'present');
  }
  const pulled = await podman.run(['pull', `docker.io/library/${image}`], { timeoutMs: 300_000 });
  if (pulled.code === 0) {
    await podman.ok(['tag', `docker.io/library/${image}`, image]);
    return done('pulled');
  }
  const tarball = path.join(podman.stateDir, `standin-${key}.tar`);
  let how = 'stand-in from the cache';
  if (!existsSync(tarball)) {
    await execOk('bash', [STANDIN_SCRIPT, image, tarball], { timeoutMs: 600_000 });
    how = 'stand-in made now';
  }
  await podman.ok(
    [
      'import',
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      // the host's CA bundle, in the stand-in only: npm inside the build must trust this network
      '--change',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/host-ca-bundle.pem',
      '--change',
      'CMD ["node"]',
      '--change',
      `LABEL ${LABEL}=${key}`,
      tarball,
      image,
    ],
    { timeoutMs: 300_000 },
  );
  return done(`${how} (the real one cannot be pulled: ${lastLine(pulled.stderr)})`);
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
