import { WakitError } from '../../../src/index.js';
import * as http from '../../../src/entries/http.js';
import { defaultClientName, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { Health, Readiness } from '../schemas/api-schemas.js';

/** Clients the server must serve: the configured ones and the default client. */
function requiredClients(rc: RestContext): string[] {
  const names = new Set(rc.sdk.env.config.clients);
  try {
    names.add(defaultClientName(rc));
  } catch {
    // not reported: no client at all; nothing to wait for
  }
  return [...names];
}

/**
 * Why the process should be restarted, if it should: the event loop blocked past
 * `watchdog.eventLoopUnhealthyMs` in the last window, or every client of this server FAILED for
 * longer than `watchdog.failedGraceMs` (nothing but a restart recovers them).
 */
function livenessProblems(rc: RestContext): string[] {
  const { eventLoopUnhealthyMs, failedGraceMs } = rc.sdk.env.config.watchdog;
  const problems: string[] = [];
  const blockedMs = Math.round(rc.sdk.eventLoop.stats().maxMs);
  if (blockedMs > eventLoopUnhealthyMs) {
    problems.push(
      `the event loop was blocked for ${blockedMs} ms (over ${eventLoopUnhealthyMs} ms)`,
    );
  }
  const failed = http.allClientsFailed({ clients: rc.sdk.clients.list(), cluster: rc.sdk.fleet });
  const failedMs = failed ? Date.now() - failed.since.getTime() : 0;
  if (failed && failedMs >= failedGraceMs) {
    // client names are not shown: this route needs no token
    problems.push(
      `every client (${failed.clients.length}) has been FAILED for ${Math.round(failedMs / 1000)} s`,
    );
  }
  return problems;
}

/** The client's last engine health check found broken capabilities, or a pin that does not hold. */
function degradedClient(rc: RestContext, name: string, why: 'capabilities' | 'pin'): boolean {
  try {
    const health = rc.sdk.clients.get(name).info().health;
    return why === 'pin' ? health?.pin?.status === 'mismatch' : health?.status === 'degraded';
  } catch {
    return false; // not reported: a client removed meanwhile is not degraded
  }
}

/** A client waiting out an outage (the network, WhatsApp unreachable): retried until cured. */
function untilCured(rc: RestContext, name: string): boolean {
  try {
    return rc.sdk.clients.get(name).info().reconnect?.untilCured === true;
  } catch {
    return false; // not reported: a client removed meanwhile is not reconnecting
  }
}

export function systemRoutes(rc: RestContext, openapi: () => unknown): AnyRoute[] {
  const routes: AnyRoute[] = [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'health',
      summary:
        'Liveness: 200 while the process serves and is not wedged; 503 when it should be restarted',
      tag: 'system',
      auth: false,
      responses: {
        200: { description: 'Alive', schema: Health },
        503: { description: 'Should be restarted, with the reasons', schema: Health },
      },
      handler(ctx) {
        const reasons = livenessProblems(rc);
        ctx.set('Cache-Control', 'no-store');
        ctx.status = reasons.length === 0 ? 200 : 503;
        ctx.body = { status: reasons.length === 0 ? 'ok' : 'unhealthy', reasons };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'ready',
      summary:
        'Readiness: 200 when the server and every client it must serve are READY (status ' +
        '`degraded` when an engine has broken capabilities on its WhatsApp Web build or runs ' +
        'another build than its pin), else 503',
      tag: 'system',
      auth: false,
      responses: {
        200: { description: 'Ready', schema: Readiness },
        503: { description: 'Not ready, with the reasons', schema: Readiness },
      },
      handler(ctx) {
        const reasons: string[] = [];
        if (!rc.status.listening || rc.status.closing)
          reasons.push('the REST server is not serving');
        if (rc.sdk.lifecycle.stopping) reasons.push('stopping: queues are draining');
        // in a fleet, a node answers for the clients it runs
        const required = requiredClients(rc).filter((name) => rc.fleet.runsHere(name));
        const missing = required.filter((name) => {
          try {
            return rc.sdk.clients.get(name).state !== 'READY';
          } catch {
            return true; // not reported: a client removed meanwhile is not READY
          }
        });
        // Client names are not shown: this route needs no token.
        if (missing.length > 0) reasons.push(`${missing.length} client(s) not READY`);
        const waiting = required.filter((name) => untilCured(rc, name)).length;
        if (waiting > 0) {
          reasons.push(
            `${waiting} client(s) reconnecting until the network or WhatsApp comes back ` +
              '(alive: /healthz stays 200)',
          );
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.status = reasons.length === 0 ? 200 : 503;
        const degraded = required.filter((name) => degradedClient(rc, name, 'capabilities'));
        const unpinned = required.filter((name) => degradedClient(rc, name, 'pin'));
        if (reasons.length === 0 && degraded.length + unpinned.length > 0) {
          if (degraded.length > 0) {
            reasons.push(
              `${degraded.length} client(s) degraded: engine capabilities broken on this build`,
            );
          }
          if (unpinned.length > 0) {
            reasons.push(
              `${unpinned.length} client(s) run a WhatsApp Web build other than their pin`,
            );
          }
          ctx.body = { status: 'degraded', reasons };
          return;
        }
        ctx.body = { status: reasons.length === 0 ? 'ready' : 'not_ready', reasons };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/openapi.json',
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      tag: 'system',
      auth: false,
      responses: {
        200: { description: 'OpenAPI document', raw: { 'application/json': 'OpenAPI 3.1' } },
      },
      handler(ctx) {
        ctx.body = openapi();
      },
    }),
  ];
  if (rc.metrics) {
    const metrics = rc.metrics;
    routes.push(
      defineRoute({
        method: 'GET',
        path: '/metrics',
        operationId: 'metrics',
        summary: 'Prometheus metrics (text exposition format)',
        tag: 'system',
        responses: {
          200: { description: 'Metrics', raw: { 'text/plain': 'Prometheus text format 0.0.4' } },
        },
        errors: [403],
        async handler(ctx, { principal }) {
          if (principal.clients !== '*') {
            throw new WakitError('FORBIDDEN', 'Metrics need a token for all clients');
          }
          const text = await metrics.text().catch((error: unknown) => {
            throw new WakitError('INTERNAL', 'metrics collection failed', { cause: error });
          });
          ctx.set('Content-Type', metrics.contentType);
          ctx.set('Cache-Control', 'no-store');
          ctx.body = text;
        },
      }),
    );
  }
  return routes;
}
