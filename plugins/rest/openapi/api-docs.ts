/**
 * `/api/docs`: the OpenAPI reference rendered by Swagger UI, served from the installed
 * `@fastify/swagger-ui` package's `static/` folder (no CDN), and `/api/docs/errors`: the error codes as a page
 * (errors-page.ts), which the `type` of every problem+json answer points to
 * (`/api/docs/errors#<code>`). Neither reveals anything,
 * so neither needs the token.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorsPage } from './errors-page.js';
import { defineRoute, type AnyRoute } from '../route.js';

/** Swagger UI sets inline styles; everything else stays same-origin. */
export const API_DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>wakit REST API reference</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
});
`;

/** docs/errors.md of the package: beside the sources, or two/three levels above a bundle chunk. */
function errorsDoc(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const up of ['../..', '..', '../../..']) {
    const file = path.resolve(here, up, 'docs', 'errors.md');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Swagger UI's built assets. They come from `@fastify/swagger-ui`, which ships them in
 * `static/` (copied from swagger-ui-dist when it is published), not from `swagger-ui-dist`
 * itself: since 5.18 that package depends on `@scarf/scarf`, whose install script reports
 * every install to a third party. Only the two files are read; none of its Fastify code runs.
 */
function swaggerUiAssets(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static');
}

export async function apiDocsRoutes(): Promise<AnyRoute[]> {
  const dist = swaggerUiAssets();
  const files = {
    css: await readFile(path.join(dist, 'swagger-ui.css')),
    js: await readFile(path.join(dist, 'swagger-ui-bundle.js')),
  };
  const doc = errorsDoc();
  const errors = Buffer.from(errorsPage(doc ? await readFile(doc, 'utf8') : undefined));
  const assets = [
    {
      path: '/api/docs',
      id: 'apiDocs',
      type: 'text/html; charset=utf-8',
      body: Buffer.from(PAGE),
      summary: 'The API reference (Swagger UI)',
    },
    {
      path: '/api/docs/swagger-ui.css',
      id: 'apiDocs_css',
      type: 'text/css; charset=utf-8',
      body: files.css,
      summary: 'API reference asset swagger-ui.css',
    },
    {
      path: '/api/docs/swagger-ui-bundle.js',
      id: 'apiDocs_js',
      type: 'text/javascript; charset=utf-8',
      body: files.js,
      summary: 'API reference asset swagger-ui-bundle.js',
    },
    {
      path: '/api/docs/init.js',
      id: 'apiDocs_init',
      type: 'text/javascript; charset=utf-8',
      body: Buffer.from(INIT),
      summary: 'API reference asset init.js',
    },
    {
      path: '/api/docs/errors',
      id: 'apiDocs_errors',
      type: 'text/html; charset=utf-8',
      body: errors,
      summary: 'The error codes, one anchor each: problem+json `type` URIs point here',
    },
  ];
  return assets.map((asset) =>
    defineRoute({
      method: 'GET',
      path: asset.path,
      operationId: asset.id,
      summary: asset.summary,
      tag: 'dashboard',
      auth: false,
      responses: {
        200: {
          description: asset.summary,
          raw: { [asset.type.split(';')[0] ?? 'text/plain']: asset.path },
        },
      },
      handler(ctx) {
        ctx.set('Content-Security-Policy', API_DOCS_CSP);
        ctx.set('Cache-Control', 'no-cache');
        ctx.type = asset.type;
        ctx.body = asset.body;
      },
    }),
  );
}
