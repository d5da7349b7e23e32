// The Dockerfile and compose.yaml parsed and their essentials checked: fast, and exact about what
// they say. test/deploy/ builds and runs the image for real.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { parseConfig, substituteEnv } from '../../src/config/index.js';

const REPO = path.resolve('.');

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function parseDockerfile(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return logical.map((line) => {
    const [op = '', ...rest] = line.split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(' ') };
  });
}

describe('deploy files (Dockerfile, compose.yaml)', () => {
  it('Dockerfile: Debian slim Node LTS, Debian chromium, non-root user, /data volume, /healthz check', async () => {
    const all = parseDockerfile(await readFile(path.join(REPO, 'Dockerfile'), 'utf8'));
    const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
    const final = all.slice(lastFrom);
    const from = final[0]?.args ?? '';
    expect(from).to.match(/^node:(\d+)-(bookworm|trixie)-slim$/);
    expect(Number(/^node:(\d+)/.exec(from)?.[1]) % 2, 'an LTS (even) Node').to.equal(0);

    const env = final
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    const run = final
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join(' ; ');
    expect(run).to.match(/apt-get install[^;]*\bchromium\b/);
    // a fixed uid/gid, so a host directory can be prepared for a bind mount (docs/deploy.md)
    expect(run).to.match(/groupadd --gid 10001 wakit/);
    expect(run).to.match(/useradd --uid 10001 --gid wakit/);
    expect(env).to.include('WAKIT_DATA=/data');
    expect(env).to.include('PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium');
    expect(env).to.include('PUPPETEER_SKIP_DOWNLOAD=true');

    const users = final.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users).to.have.length.greaterThan(0);
    expect(users.at(-1)).to.not.match(/^(root|0)(:|$)/);
    const userAt = final.findIndex((i) => i.op === 'USER');
    const entryAt = final.findIndex((i) => i.op === 'ENTRYPOINT');
    expect(userAt).to.be.lessThan(entryAt);

    const volume = final.find((i) => i.op === 'VOLUME')?.args ?? '';
    expect(volume).to.include('/data');
    const health = final.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    expect(health).to.include('/healthz').and.include('CMD');
    expect(final.find((i) => i.op === 'EXPOSE')?.args).to.equal('3000');

    // every file COPY takes from the build context exists in the repository
    for (const copy of all.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) {
        if (source === '.') continue;
        expect(existsSync(path.join(REPO, source)), `COPY ${source}`).to.equal(true);
      }
    }
    // an allow-list: everything is left out but what the image is built from, and never a
    // .env, node_modules or sessions, at any depth (a bot's folder beside the Dockerfile)
    const ignore = (await readFile(path.join(REPO, '.dockerignore'), 'utf8')).split('\n');
    expect(ignore.find((line) => line && !line.startsWith('#'))).to.equal('*');
    expect(ignore).to.include.members(['**/.env', '**/.env.*', '**/node_modules', '**/.wakit']);
  });

  it('compose.yaml: wakit with a data volume, the token from the environment (checked on up only), remote sessions shown', async () => {
    const text = await readFile(path.join(REPO, 'compose.yaml'), 'utf8');
    const compose = yaml.load(text) as {
      services: Record<
        string,
        {
          build?: string;
          image?: string;
          entrypoint?: string[];
          depends_on?: Record<string, { condition: string }>;
          environment?: Record<string, string>;
          volumes?: string[];
          ports?: string[];
        }
      >;
      volumes: Record<string, unknown>;
    };
    const wakit = compose.services.wakit;
    expect(wakit, 'a wakit service').to.be.an('object');
    expect(wakit?.build).to.equal('.');
    // no ${VAR:?} (it would fail every command, ps and down too): a one-shot service checks it
    expect(wakit?.environment?.WAKIT_REST_TOKEN).to.equal('${WAKIT_REST_TOKEN:-}');
    expect(text).not.to.include(':?');
    expect(wakit?.depends_on?.['require-token']?.condition).to.equal(
      'service_completed_successfully',
    );
    const check = compose.services['require-token'];
    expect(check?.image).to.equal(wakit?.image);
    expect(check?.environment?.WAKIT_REST_TOKEN).to.equal('${WAKIT_REST_TOKEN:-}');
    expect(check?.entrypoint?.join(' ')).to.include('process.exit(1)');
    const dataVolume = wakit?.volumes?.find((v) => v.endsWith(':/data'));
    expect(dataVolume).to.be.a('string');
    expect(compose.volumes).to.have.key(dataVolume?.split(':')[0] ?? '');
    expect(text).to.match(/^\s*#.*"type": "remote"|^\s*#.*GOOGLE_APPLICATION_CREDENTIALS/m);
  });

  it('docs/deploy.md: its configs are valid, its Kubernetes manifest probes /healthz and /readyz with the data volume', async () => {
    const text = await readFile(path.join(REPO, 'docs/deploy.md'), 'utf8');
    const blocks = (lang: string) =>
      [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(
        (m) => m[1] ?? '',
      );
    const env = {
      WAKIT_REST_TOKEN: 't'.repeat(32),
      WAKIT_GCS_BUCKET: 'bkt',
      WAKIT_REDIS_URL: 'redis://r:6379',
    };
    const configs = blocks('json');
    expect(configs).to.have.length(2);
    for (const json of configs) parseConfig(substituteEnv(JSON.parse(json), env));

    const docs = blocks('yaml').flatMap((y) => yaml.loadAll(y)) as {
      kind: string;
      spec: {
        template?: {
          spec: {
            securityContext: { runAsUser: number; runAsGroup: number };
            containers: {
              livenessProbe: { httpGet: { path: string } };
              readinessProbe: { httpGet: { path: string } };
              volumeMounts: { name: string; mountPath: string }[];
            }[];
            volumes: { name: string; persistentVolumeClaim?: unknown }[];
          };
        };
      };
    }[];
    const deployment = docs.find((d) => d.kind === 'Deployment')?.spec.template?.spec;
    expect(deployment?.securityContext).to.include({ runAsUser: 10001, runAsGroup: 10001 });
    const container = deployment?.containers[0];
    expect(container?.livenessProbe.httpGet.path).to.equal('/healthz');
    expect(container?.readinessProbe.httpGet.path).to.equal('/readyz');
    const data = container?.volumeMounts.find((m) => m.mountPath === '/data');
    const volume = deployment?.volumes.find((v) => v.name === data?.name);
    expect(volume?.persistentVolumeClaim, 'the data volume is a claim').to.be.an('object');
    expect(docs.map((d) => d.kind)).to.include('PersistentVolumeClaim');
  });
});
