/**
 * `wakitjs/config`: for tooling around the configuration file: its zod schema and JSON Schema,
 * loading and parsing (with `${ENV}` substitution), and the client name rule.
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export {
  clientNameSchema,
  configSchema,
  configJsonSchema,
  loadConfigFile,
  parseConfig,
  substituteEnv,
  type LoadedConfig,
} from '../config/index.js';
