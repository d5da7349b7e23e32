/** Steps shared by the SIGKILL and SIGTERM bulk tests: accept a bulk over REST, check the outcome. */
import { expect } from 'chai';
import {
  CONTACT_ID,
  DEADLINE_MS,
  duplicates,
  eventually,
  type ChildServer,
  type FaultDir,
} from './child-server.js';

export const BULK = 120;
const FINAL = new Set(['sent', 'delivered', 'read', 'played', 'failed']);

/** POSTs `count` text sends (a few at a time); every one must be a 202. Returns id per body. */
export async function acceptBulk(server: ChildServer, count = BULK): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const bodies = Array.from({ length: count }, (_, n) => `bulk-${String(n).padStart(3, '0')}`);
  for (let i = 0; i < bodies.length; i += 8) {
    await Promise.all(
      bodies.slice(i, i + 8).map(async (body) => {
        const res = await server.request('POST', '/api/v1/messages', {
          json: { chatId: CONTACT_ID, content: body },
        });
        expect(res.status, `POST ${body}: ${JSON.stringify(res.json)}`).to.equal(202);
        ids.set(body, (res.json as { id: string }).id);
      }),
    );
  }
  expect(ids.size).to.equal(count);
  return ids;
}

export interface BulkOutcome {
  /** Distinct bodies the recipient got. */
  sent: number;
  /** Messages the recipient got more than once (extra copies). */
  duplicates: number;
  statuses: Map<string, string>;
}

/**
 * Waits until the recipient got every body and every id answers GET /api/v1/messages/{id} with a
 * final status, then counts.
 */
export async function settle(
  server: ChildServer,
  dir: FaultDir,
  ids: Map<string, string>,
): Promise<BulkOutcome> {
  const all = await eventually(
    () => new Set(dir.received().map((r) => r.body)).size >= ids.size,
    DEADLINE_MS,
  );
  expect(all, `only ${new Set(dir.received().map((r) => r.body)).size} sent`).to.equal(true);
  const statuses = new Map<string, string>();
  const final = await eventually(async () => {
    for (const [body, id] of ids) {
      if (FINAL.has(statuses.get(body) ?? '')) continue;
      const res = await server.request('GET', `/api/v1/messages/${id}`);
      expect(res.status, `GET ${id} (${body})`).to.equal(200);
      statuses.set(body, (res.json as { status: string }).status);
    }
    return [...statuses.values()].every((s) => FINAL.has(s));
  }, DEADLINE_MS);
  expect(final, JSON.stringify(Object.fromEntries(statuses))).to.equal(true);
  const received = dir.received();
  const extra = [...duplicates(received).values()].reduce((sum, n) => sum + n - 1, 0);
  return { sent: new Set(received.map((r) => r.body)).size, duplicates: extra, statuses };
}
