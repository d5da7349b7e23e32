export * from './schema.js';
export { parseConfig, deepFreeze } from './validate.js';
export { loadConfigFile, substituteEnv, type LoadedConfig } from './load.js';
export { configJsonSchema } from './json-schema.js';
export { didYouMean, friendlyIssues, jsonErrorLocation } from './friendly.js';
