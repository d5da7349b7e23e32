/**
 * `wakitjs/http`: for plugins that serve HTTP (the built-in REST plugin and yours): the plugin
 * route types, named schemas (OpenAPI components), problem helpers (`issueError`, `zodIssues`, `capIssues`), the SSRF guard and URL
 * redaction of the media fetcher, and `allClientsFailed` (one problem for a fan-out that failed
 * on every client).
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export { allClientsFailed, type AllFailed, type ClientsView } from '../client/core/all-failed.js';
export type {
  HttpMethod,
  PluginHttp,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginRoute,
  PluginRouteRegistry,
  SendLookup,
} from '../plugins/types.js';
export {
  clientNameSchema,
  clientStatusSchema,
  httpSchemas,
  namedSchema,
} from '../plugins/http-schemas.js';
export { guardedLookup, redact } from '../client/media/safe-fetch.js';
export { isPrivateAddress } from '../client/media/ip-policy.js';
export { MAX_ISSUES, capIssues, issueError, zodIssues, type ErrorIssue } from '../errors/index.js';
