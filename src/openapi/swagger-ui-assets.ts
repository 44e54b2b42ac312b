import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Request, Response } from 'express';

/** The files of swagger-ui-dist that Swagger UI's page (@nestjs/swagger's) loads, with their media types. */
const PAGE_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** One of the page's files, held in memory: its name under /v1/docs/ and the handler that answers it. */
export interface SwaggerUiAsset {
  readonly name: string;
  readonly serve: (request: Request, response: Response) => void;
}

/**
 * The page's files, read once at start from the swagger-ui-dist that @nestjs/swagger serves (about
 * 2 MB), so that a running service answers them whatever happens to node_modules after it started:
 * `npm ci` beside it (the README's test command) deletes and reinstalls the folder, and Express's
 * static files answered nothing for the 50 s that took. Each has a strong ETag of its bytes, which
 * a browser revalidates with (304).
 */
export function swaggerUiAssets(): SwaggerUiAsset[] {
  const fromNest = createRequire(createRequire(import.meta.url).resolve('@nestjs/swagger'));
  const folder = dirname(fromNest.resolve('swagger-ui-dist/package.json'));
  return Object.entries(PAGE_ASSETS).map(([name, type]) => {
    const body = readFileSync(join(folder, name));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const serve = (request: Request, response: Response): void => {
      response.set({ 'Content-Type': type, ETag: etag, 'Cache-Control': 'public, max-age=0' });
      if (request.fresh) return void response.status(304).end();
      response.send(body);
    };
    return { name, serve };
  });
}
