/** Regenerates config.schema.json from the zod schema: `npm run schema`. */
import { writeFile } from 'node:fs/promises';
import { configJsonSchema } from '../src/config/json-schema.js';

await writeFile(
  new URL('../config.schema.json', import.meta.url),
  `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
);
console.log('config.schema.json written');
