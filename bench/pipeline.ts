/**
 * Plugin pipeline benchmark (issue 4): inbound messages per second through the plugin pipeline
 * with auto-reply, forwarder and media-saver enabled (rules that never match, so it measures
 * dispatch: the command check, three middleware handlers, a counting handler at the end) against
 * the bare client `message` event, both on the simulator in the same run. Target: ≥ 50%.
 * Standalone: `npx tsx bench/pipeline.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { definePlugin } from '../src/index.js';
import autoReply from '../plugins/auto-reply/index.js';
import forwarder from '../plugins/forwarder/index.js';
import mediaSaver from '../plugins/media-saver/index.js';
import { linkedSimulator, pushInbound } from './inbound.js';

export const PIPELINE_MESSAGES = 100_000;

async function bareRate(count: number): Promise<number> {
  const { sdk, cleanup } = await linkedSimulator();
  try {
    await sdk.start();
    const client = sdk.client('bench');
    await client.waitUntilReady({ timeoutMs: 10_000 });
    let seen = 0;
    client.on('message', (m) => {
      if (m.body) seen++;
    });
    return await pushInbound(sdk, count, () => seen);
  } finally {
    await sdk.stop();
    await cleanup();
  }
}

async function pipelineRate(count: number): Promise<number> {
  const { sdk, cleanup } = await linkedSimulator();
  const media = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-media-'));
  let seen = 0;
  try {
    sdk
      .use(autoReply, {
        rules: [
          { match: 'opening hours', type: 'contains', reply: 'x' },
          { match: '^order #\\d+$', type: 'regex', reply: 'x' },
          { match: 'HELP', type: 'exact', caseSensitive: true, reply: 'x' },
        ],
      })
      .use(forwarder, { routes: [{ from: '15559999999@c.us', to: ['15558888888@c.us'] }] })
      .use(mediaSaver, { dir: media })
      .use(
        definePlugin({
          name: 'counter',
          setup(ctx) {
            ctx.on('message', (event) => {
              if (event.message.body) seen++;
            });
          },
        }),
      );
    await sdk.start();
    await sdk.client('bench').waitUntilReady({ timeoutMs: 10_000 });
    return await pushInbound(sdk, count, () => seen);
  } finally {
    await sdk.stop();
    await cleanup();
    await rm(media, { recursive: true, force: true });
  }
}

export async function benchPipeline(): Promise<Record<string, number | string>> {
  // warm up both paths, then alternate and keep the best of two (shared, noisy machines)
  await bareRate(10_000);
  await pipelineRate(10_000);
  const bare = Math.max(await bareRate(PIPELINE_MESSAGES), await bareRate(PIPELINE_MESSAGES));
  const pipeline = Math.max(
    await pipelineRate(PIPELINE_MESSAGES),
    await pipelineRate(PIPELINE_MESSAGES),
  );
  const ratio = (pipeline / bare) * 100;
  return {
    'bare: client.on(message) (msg/s)': bare,
    'pipeline: commands + auto-reply + forwarder + media-saver (msg/s)': pipeline,
    'ratio to bare': `${ratio.toFixed(1)}% (target ≥ 50%: ${ratio >= 50 ? 'met' : 'MISSED'})`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchPipeline());
}
