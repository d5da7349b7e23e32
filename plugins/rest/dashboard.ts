/** The dashboard: one HTML page, its script and its stylesheet, served from files (no build, no CDN). */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { apiDocsRoutes } from './openapi/api-docs.js';
import type { AnyRoute } from './route.js';
import { defineRoute } from './route.js';

const ASSETS = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/dashboard/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { path: '/dashboard/style.css', file: 'style.css', type: 'text/css; charset=utf-8' },
] as const;

/** Strict CSP: only this origin's script, style and API; QR images come as data: URLs. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Where the page files are: beside this module in the sources; from the bundle (`dist/` chunks or
 * `dist/plugins/rest/`) in the package's shipped `plugins/rest/dashboard/`.
 */
function dashboardDir(): URL {
  const candidates = [
    './dashboard/',
    '../plugins/rest/dashboard/',
    '../../../plugins/rest/dashboard/',
  ];
  for (const candidate of candidates) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(new URL('index.html', url)))) return url;
  }
  return new URL('./dashboard/', import.meta.url);
}

/**
 * Loads the files once; the pages reveal nothing, so they need no token (the API calls do). The
 * API reference at `/api/docs` comes with them.
 */
export async function dashboardRoutes(): Promise<AnyRoute[]> {
  const dir = dashboardDir();
  const docs = await apiDocsRoutes();
  const loaded = await Promise.all(
    ASSETS.map(async (asset) => ({ ...asset, body: await readFile(new URL(asset.file, dir)) })),
  );
  const pages = loaded.map((asset) =>
    defineRoute({
      method: 'GET',
      path: asset.path,
      operationId: asset.path === '/' ? 'dashboard' : `dashboard_${asset.file.replace('.', '_')}`,
      summary: asset.path === '/' ? 'The dashboard page' : `Dashboard asset ${asset.file}`,
      tag: 'dashboard',
      auth: false,
      responses: {
        200: { description: asset.file, raw: { [asset.type.split(';')[0]]: asset.file } },
      },
      handler(ctx) {
        ctx.set('Content-Security-Policy', DASHBOARD_CSP);
        ctx.set('Cache-Control', 'no-cache');
        ctx.type = asset.type;
        ctx.body = asset.body;
      },
    }),
  );
  return [...pages, ...docs];
}
