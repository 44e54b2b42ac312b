import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/** The files of swagger-ui-dist that Swagger UI's page (@nestjs/swagger's) loads, with their media types. */
const PAGE_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/**
 * The handler of the page's files (`/v1/docs/:asset`), read once at start from the swagger-ui-dist
 * that @nestjs/swagger serves (about 2 MB), so that a running service answers them whatever happens to node_modules after it started:
 * `npm ci` beside it (the README's test command) deletes and reinstalls the folder, and Express's
 * static files answered nothing for the 50 s that took. Each has a strong ETag of its bytes, which
 * a browser revalidates with (304).
 */
export function swaggerUiAssets(): (request: Request, response: Response, next: unknown) => void {
  const fromNest = createRequire(createRequire(import.meta.url).resolve('@nestjs/swagger'));
  const folder = dirname(fromNest.resolve('swagger-ui-dist/package.json'));
  const assets = new Map(
    Object.entries(PAGE_ASSETS).map(([name, type]) => {
      const body = readFileSync(join(folder, name));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      return [name, { body, headers: { 'Content-Type': type, ETag: etag, 'Cache-Control': 'public, max-age=0' } }] as const;
    }),
  );
  // One route for them all (`/v1/docs/:asset`), any other name passed on: every request the
  // router walks past walks past one more route per route (a route each cost listPets 0.2%; issue 56).
  return (request, response, next) => {
    const asset = assets.get(request.params.asset as string);
    if (asset === undefined) return (next as NextFunction)();
    response.set(asset.headers);
    if (request.fresh) return void response.status(304).end();
    response.send(asset.body);
  };
}
