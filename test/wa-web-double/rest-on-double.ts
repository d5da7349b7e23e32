/**
 * The REST server (with /metrics) over an SDK whose clients run on the double, and a `call`
 * helper that sends the bearer token (an empty `authorization` header sends none).
 */
import { pino } from 'pino';
import { createRestServer, type RestServer } from '../../plugins/rest/server.js';
import type { Sdk } from '../../src/index.js';
import { restHostOf } from '../helpers/rest-host.js';

export const TOKEN = 'double-token-0123456789abcdef0123456789';

export interface RestCall {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> | null;
}

export async function restOnDouble(sdk: Sdk): Promise<{
  server: RestServer;
  call: (
    method: string,
    route: string,
    json?: unknown,
    headers?: Record<string, string>,
  ) => Promise<RestCall>;
}> {
  const server = await createRestServer({
    sdk: restHostOf(sdk),
    logger: pino({ level: 'silent' }),
    options: { port: 0, tokens: [{ token: TOKEN, clients: ['*'] }] },
  });
  await server.listen();
  const call = async (method: string, route: string, json?: unknown, headers = {}) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json') ?? false;
    const body = (isJson ? JSON.parse(text) : null) as Record<string, unknown> | null;
    return { status: response.status, headers: response.headers, text, json: body };
  };
  return { server, call };
}
