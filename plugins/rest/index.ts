/**
 * The built-in `rest` plugin: the REST API of SPEC-REST.md on Koa, with SSE, webhooks, OpenAPI,
 * Prometheus metrics and the dashboard. Enable it with `plugins: { rest: { tokens: [...] } }`.
 */
import { definePlugin } from '../../src/index.js';
import { REST_PRIVILEGES, restHost } from './rest-host.js';
import { restOptionsSchema } from './options.js';
import { advertisedUrl, createRestServer } from './server.js';

export {
  restOptionsSchema,
  EVENT_TYPES,
  type RestOptions,
  type RestOptionsInput,
  type WebhookOptions,
} from './options.js';
export {
  createRestServer,
  isLoopbackHost,
  type RestServer,
  type RestServerOptions,
} from './server.js';
export { signBody, signStandard } from './events/webhooks.js';

export default definePlugin({
  name: 'rest',
  version: '1.0.0',
  options: restOptionsSchema,
  privileges: REST_PRIVILEGES,
  async setup(ctx, services) {
    const server = await createRestServer({
      sdk: restHost(ctx, services),
      options: ctx.options,
      logger: ctx.log,
      pluginRoutes: ctx.http,
    });
    await server.listen();
    // a fleet forwards requests for this node's clients here (unless cluster.advertiseUrl is set)
    services.fleet?.advertise(advertisedUrl(server.options.host, server.port));
    ctx.onClose(() => server.close());
  },
});
