/** Regenerates config.schema.json from the zod schemas (config and built-in plugins): `npm run schema`. */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import ai from '../plugins/ai/index.js';
import autoReply from '../plugins/auto-reply/index.js';
import forwarder from '../plugins/forwarder/index.js';
import mediaSaver from '../plugins/media-saver/index.js';
import rest from '../plugins/rest/index.js';
import { configJsonSchema } from '../src/config/json-schema.js';

/** The schema written to config.schema.json: the config's, with every built-in plugin's options. */
export function fullConfigJsonSchema(): Record<string, unknown> {
  const options = Object.fromEntries(
    [rest, autoReply, forwarder, mediaSaver, ai].map((plugin) => {
      if (!plugin.options) throw new Error(`plugin ${plugin.name} has no options schema`);
      return [plugin.name, plugin.options];
    }),
  );
  return configJsonSchema(options);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(
    new URL('../config.schema.json', import.meta.url),
    `${JSON.stringify(fullConfigJsonSchema(), null, 2)}\n`,
  );
  console.log('config.schema.json written');
}
