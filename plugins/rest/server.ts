/**
 * The REST server, composed: problem+json boundary, security headers, CORS, plugin routes and the
 * routes of SPEC-REST.md on @koa/router, plus SSE, webhooks, metrics and the dashboard. Each part
 * lives in its own module; this file only wires them. `listen()` and `close()` run it (the plugin
 * calls them from `sdk.start()` and `sdk.stop()`).
 */
import Koa, { type Context } from 'koa';
import type { Logger } from 'pino';
import { TokenAuth, type Principal } from './middleware/auth.js';
import type { RestContext } from './context.js';
import type { RestHost } from './rest-host.js';
import { dashboardRoutes } from './dashboard.js';
import { EventHub, hubEventOf, type HubEvent } from './events/event-hub.js';
import { eventRoutes } from './events/sse.js';
import { checkSecurity } from './middleware/host-check.js';
import { HttpServer } from './http-server.js';
import { jsonBodyReader } from './middleware/body.js';
import { corsFor } from './middleware/cors.js';
import { forwardToOwner } from './middleware/forward.js';
import { problemBoundary } from './middleware/problem-boundary.js';
import { securityHeaders } from './middleware/security-headers.js';
import { RestMetrics } from './metrics/rest-metrics.js';
import { buildOpenApi } from './openapi/document.js';
import { restOptionsSchema, type RestOptions, type RestOptionsInput } from './options.js';
import { pluginRoutes, typedPluginRoutes } from './routes/plugin-routes.js';
import type { AnyRoute } from './route.js';
import { routeTable } from './route-table.js';
import { clientRoutes } from './routes/clients.js';
import { capabilityRoutes } from './routes/capability-routes.js';
import { clientAdminRoutes } from './routes/client-admin.js';
import { conversationRoutes } from './routes/conversations.js';
import { chatModeRoutes } from './routes/chat-modes.js';
import { clusterRoutes } from './routes/cluster.js';
import { scheduleRoutes } from './routes/schedules.js';
import { restFleet } from './fleet-view.js';
import { ClientWebhooks } from './events/client-webhooks.js';
import { messageRoutes } from './routes/messages.js';
import { scheduledMessageRoutes } from './routes/scheduled-messages.js';
import { actionRoutes } from './routes/actions.js';
import { mcpRoutes } from './mcp/mcp-route.js';
import { systemRoutes } from './routes/system.js';
import { WebhookDispatcher } from './events/webhooks.js';
import { rateLimitMiddleware } from './middleware/rate-limit.js';
import { requireUtf8 } from './middleware/charset.js';
import type * as wakitHttp from '../../src/entries/http.js';

export { isLoopbackHost } from './middleware/host-check.js';

/** The consumer group of the fleet's event stream that delivers webhooks (once per fleet). */
export const WEBHOOK_GROUP = 'webhooks';

/** Logs failed publishes to the fleet's stream, at most once per 10 s (those events are lost). */
function publishFailureLog(log: Logger): (error: unknown) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    log.warn({ err: error }, 'events could not be published to the fleet stream; they are lost');
  };
}

export interface RestServerOptions {
  /** What the server needs of wakit (the plugin passes its context). */
  sdk: RestHost;
  /** Raw or parsed plugin options (validated here). */
  options: RestOptionsInput | RestOptions;
  logger: Logger;
  /** Extra routes mounted like the built-in ones. */
  routes?: AnyRoute[];
  /** Routes of other plugins (`ctx.http`), served under `/api/v1/plugins/<plugin>`. */
  pluginRoutes?: wakitHttp.PluginRouteRegistry;
}

export interface RestServer {
  readonly app: Koa;
  readonly options: RestOptions;
  readonly metrics: RestMetrics | undefined;
  readonly hub: EventHub;
  readonly routes: readonly AnyRoute[];
  /** `http://host:port` once listening. */
  readonly url: string;
  readonly port: number;
  /** The OpenAPI 3.1 document of the mounted routes. */
  openapi(): Record<string, unknown>;
  listen(): Promise<void>;
  /** Stops taking requests, ends SSE streams, lets in-flight requests finish (closeTimeoutMs). */
  close(): Promise<void>;
}

/**
 * The URL other nodes of a fleet reach this server at: the listen address, a wildcard one
 * (`0.0.0.0`, `::`) as loopback (set `cluster.advertiseUrl` for real multi-host fleets).
 */
export function advertisedUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/** The principal of a request with a valid token (or insecure mode); undefined otherwise. */
function identify(auth: TokenAuth, ctx: Context): Principal | undefined {
  try {
    return auth.authenticate(ctx.get('authorization') || undefined);
  } catch {
    return undefined; // not reported: no valid token means no identity (the answer)
  }
}

export async function createRestServer(init: RestServerOptions): Promise<RestServer> {
  const options = restOptionsSchema.parse(init.options);
  checkSecurity(options);
  const { sdk } = init;
  const log = init.logger;
  const auth = new TokenAuth(options.tokens, options.insecure);
  const fleet = restFleet(sdk.fleet);
  const metrics = options.metrics ? new RestMetrics(sdk, fleet) : undefined;
  const hub = new EventHub(sdk, {
    fleet,
    bufferSize: options.sse.bufferSize,
    onPublishError: publishFailureLog(log),
  });
  const clientWebhooks = new ClientWebhooks(sdk.clientAdmin, { ...options.clientWebhooks, log });
  const webhooks = new WebhookDispatcher({
    hooks: options.webhooks,
    clientHooks: clientWebhooks,
    metrics,
    log,
    report: (error, where) => sdk.events.report(error, { source: 'webhook', ...where }),
  });
  const status = { listening: false, closing: false };
  const rc: RestContext = {
    sdk,
    fleet,
    options,
    log,
    hub,
    metrics,
    clientWebhooks,
    streams: new Set(),
    status,
  };
  const detachMetrics: (() => void)[] = [];
  if (metrics)
    detachMetrics.push(sdk.clients.onClient((client) => detachMetrics.push(metrics.watch(client))));
  // Webhooks (and the events metric) want every type their hooks name; no hook: no message.status.
  // Per-client webhooks change at run time: the subscription follows them. A fleet: the `webhooks`
  // group of the stream hands each event to one node, which delivers it (acknowledged once over).
  let unsubscribeHooks = (): void => undefined;
  const cluster = fleet.view;
  const subscribeHooks = (): void => {
    if (cluster) return;
    // tests (`createTestSdk`) never reach a real receiver: no webhook is delivered
    const hooks = sdk.env.testing ? [] : [...options.webhooks, ...clientWebhooks.all()];
    const types = hooks.some((hook) => !hook.events)
      ? undefined
      : new Set<string>(hooks.flatMap((hook) => hook.events ?? []));
    const previous = unsubscribeHooks;
    // No webhook at all (the usual case): nothing to schedule per event, only the count.
    const count = (event: HubEvent): void => metrics?.event(event.event);
    unsubscribeHooks = hub.subscribe(
      hooks.length === 0
        ? count
        : (event) => {
            count(event);
            webhooks.handle(event);
          },
      types,
    );
    previous();
  };
  subscribeHooks();
  if (sdk.env.testing && options.webhooks.length > 0) {
    log.info(
      '%d webhooks not delivered: tests (createTestSdk) make no calls out',
      options.webhooks.length,
    );
  }
  const detachClientHooks = clientWebhooks.onChange(subscribeHooks);
  if (cluster) {
    const stopMetrics = metrics ? hub.subscribe((event) => metrics.event(event.event)) : undefined;
    const stopConsuming = cluster.events.consume(WEBHOOK_GROUP, (event) =>
      webhooks.deliver(hubEventOf(event), event.id),
    );
    unsubscribeHooks = () => {
      stopConsuming();
      stopMetrics?.();
    };
  }

  const routes: AnyRoute[] = [];
  let document: Record<string, unknown> | undefined;
  let documented = -1;
  // built again when plugins added routes since (their schema-typed routes are in it)
  const openapi = (): Record<string, unknown> => {
    const registered = init.pluginRoutes?.routes().length ?? 0;
    if (document && documented === registered) return document;
    documented = registered;
    const plugin = init.pluginRoutes ? typedPluginRoutes(rc, init.pluginRoutes) : [];
    return (document = buildOpenApi([...routes, ...plugin], {
      title: 'wakit REST API',
      version: '1.0.0',
      description:
        'Send and receive WhatsApp messages through wakit clients. See docs/rest-api.md.',
    }));
  };
  routes.push(
    ...systemRoutes(rc, openapi),
    ...clientRoutes(rc),
    ...clientAdminRoutes(rc),
    ...conversationRoutes(rc),
    ...chatModeRoutes(rc),
    ...clusterRoutes(rc),
    ...scheduleRoutes(rc),
    ...messageRoutes(rc),
    ...scheduledMessageRoutes(rc),
    ...capabilityRoutes(rc),
    ...eventRoutes(rc),
    ...actionRoutes(rc),
    ...mcpRoutes(rc),
    ...(options.dashboard ? await dashboardRoutes() : []),
    ...(init.routes ?? []),
  );

  const anonymous: Principal = { tokenIndex: -1, clients: '*' };
  const deps = {
    anonymous,
    authenticate: (ctx: Context) => auth.authenticate(ctx.get('authorization') || undefined),
    readBody: jsonBodyReader(options.bodyLimit),
  };
  const app = new Koa({ proxy: false });
  app.on('error', (error: unknown) => log.debug({ err: error }, 'koa stream error'));
  app.use(problemBoundary({ log, metrics, status }));
  app.use(securityHeaders());
  if (options.cors) app.use(corsFor(options.cors));
  if (options.rateLimit) {
    app.use(rateLimitMiddleware(options.rateLimit, (ctx) => identify(auth, ctx)));
  }
  app.use(requireUtf8);
  if (fleet.view) app.use(forwardToOwner(rc));
  if (init.pluginRoutes) app.use(pluginRoutes(rc, init.pluginRoutes, deps));
  app.use(routeTable(routes, deps));

  const http = new HttpServer(app, log);
  let closed: Promise<void> | undefined;
  return {
    app,
    options,
    metrics,
    hub,
    routes,
    openapi,
    get url() {
      return http.url;
    },
    get port() {
      return http.port;
    },
    async listen() {
      await http.listen(options.port, options.host);
      status.listening = true;
      log.info(
        { url: http.url, dashboard: options.dashboard, tokens: options.tokens.length },
        'REST API listening on %s',
        http.url,
      );
    },
    close() {
      closed ??= (async () => {
        status.closing = true;
        for (const stream of [...rc.streams]) stream.end();
        // first: a fleet's deliveries cut short by the close stay unacknowledged for other nodes
        unsubscribeHooks();
        hub.close();
        detachClientHooks();
        clientWebhooks.close();
        for (const detach of detachMetrics.splice(0)) detach();
        await webhooks.close();
        await http.close(options.closeTimeoutMs);
        status.listening = false;
        log.info('REST API closed');
      })();
      return closed;
    },
  };
}
