/**
 * `wakitjs/http`: for plugins that serve HTTP (the built-in REST plugin and yours, as
 * `import * as http from 'wakitjs/http'`): the plugin route types, named schemas (OpenAPI
 * components), problem helpers (`issueError`, `zodIssues`, `capIssues`), the SSRF guard and URL redaction of the media
 * fetcher, `computeBackoff` for retried deliveries, `allClientsFailed` (one problem for a fan-out
 * that failed on every client), and the types of what such a plugin is granted: the clients and
 * events of its context, the privileged services, client administration and the fleet view.
 *
 * Stability: semver (docs/api-surface.md). Removing or renaming a name is a breaking change.
 */
export { allClientsFailed, type AllFailed, type ClientsView } from '../client/core/all-failed.js';
export type {
  HttpMethod,
  PluginClients,
  PluginEvents,
  PrivilegeName,
  PrivilegedServices,
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
export type { MetricFamily, MetricSample, PluginMetrics } from '../plugins/plugin-metrics.js';
export { guardedLookup, redact } from '../client/media/safe-fetch.js';
export { isPrivateAddress } from '../client/media/ip-policy.js';
export { MAX_ISSUES, capIssues, issueError, zodIssues, type ErrorIssue } from '../errors/index.js';
export { computeBackoff } from '../kernel/backoff.js';
export type { ClientAdmin, ClientListing } from '../kernel/client-admin.js';
export type { ClientOwner, ClusterView, FleetEvent, FleetNode } from '../cluster/cluster-view.js';
