/**
 * `npm run bench`: every benchmark named in the issues, each against a baseline measured in the
 * same run (these machines are shared and noisy: read the ratios, not the absolute numbers).
 * `npm run bench -- inbound queue` runs a subset.
 */
import { benchAi } from './ai.js';
import { benchConversations } from './conversations.js';
import { benchInbound } from './inbound.js';
import { benchInboundMix } from './inbound-mix.js';
import { benchFleet } from './fleet.js';
import { benchOutbox } from './outbox.js';
import { benchPipeline } from './pipeline.js';
import { benchQueue } from './queue.js';
import { benchRest } from './rest.js';
import { benchWwebjsDouble } from './wwebjs-double.js';

const benches: Record<string, () => Promise<Record<string, unknown>>> = {
  inbound: benchInbound,
  'inbound-mix': benchInboundMix,
  queue: benchQueue,
  pipeline: benchPipeline,
  rest: benchRest,
  outbox: benchOutbox,
  fleet: benchFleet,
  'wwebjs-double': benchWwebjsDouble,
  conversations: benchConversations,
  ai: benchAi,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  console.table(await run());
}
