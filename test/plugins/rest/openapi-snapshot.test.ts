/**
 * The served OpenAPI document, compared with a committed snapshot (sorted JSON), so any drift of
 * paths, operationIds, statuses, headers or schemas shows, e.g. while routes become generated from
 * capability declarations. Regenerate on purpose only: `WAKIT_UPDATE_OPENAPI_SNAPSHOT=1 npx mocha
 * test/plugins/rest/openapi-snapshot.test.ts`, and say in the commit that the document changed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { restFixture, type RestFixture } from '../../helpers/rest-harness.js';

const SNAPSHOT = fileURLToPath(new URL('./openapi.snapshot.json', import.meta.url));

/** Object keys sorted at every level; arrays keep their order (it is meaningful). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, sorted(inner)]));
}

describe('REST: OpenAPI snapshot', () => {
  let fx: RestFixture;

  before(async () => {
    fx = await restFixture();
  });
  after(async () => {
    await fx.close();
  });

  it('serves the document of the committed snapshot', async () => {
    const res = await fx.request('GET', '/api/v1/openapi.json', { token: null });
    expect(res.status).to.equal(200);
    const served = `${JSON.stringify(sorted(res.json), null, 2)}\n`;
    if (process.env.WAKIT_UPDATE_OPENAPI_SNAPSHOT === '1') {
      await writeFile(SNAPSHOT, served);
      return;
    }
    const committed = await readFile(SNAPSHOT, 'utf8');
    // Compared as parsed JSON so a failure shows the differing paths, not one long string.
    expect(JSON.parse(served)).to.deep.equal(JSON.parse(committed));
  });
});
