import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { configJsonSchema } from '../../src/entries/config.js';

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Every property path of the config schema, through unions (engine and auth variants). */
function schemaPaths(schema: JsonSchema, at = '', out = new Set<string>()): Set<string> {
  for (const variant of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    schemaPaths(variant, at, out);
  }
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const path = at ? `${at}.${key}` : key;
    out.add(path);
    schemaPaths(child, path, out);
  }
  return out;
}

describe('docs/configuration.md', () => {
  it('documents every key of the config schema', async () => {
    const doc = await readFile('docs/configuration.md', 'utf8');
    const paths = [...schemaPaths(configJsonSchema())];
    expect(paths.length).to.be.above(40);
    const missing = paths.filter((p) => !doc.includes(`\`${p}\``));
    expect(missing, `undocumented keys: ${missing.join(', ')}`).to.deep.equal([]);
  });
});
