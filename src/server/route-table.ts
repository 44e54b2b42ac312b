import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { match } from 'path-to-regexp';

/**
 * Whether an Express route is one of the application's: Nest mounts middleware on catch-all routes
 * (`{/*splat}`), and no route of ours has a wildcard.
 */
export function isApplicationRoute(path: string): boolean {
  return !path.includes('*');
}

/** The matched route pattern (e.g. /v1/pets/:petId), or null for a request no route of the application matched. */
export function routeOf(request: IncomingMessage): string | null {
  const route = (request as Request).route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' && isApplicationRoute(route.path) ? route.path : null;
}

interface RouteEntry {
  readonly matches: (path: string) => boolean;
  readonly methods: readonly string[];
}

/**
 * Which methods a path answers to, for the 405 `Allow` header. Read from Express's own router
 * (routes are final once the app has started), with the path-to-regexp version Express matches with.
 */
@Injectable()
export class RouteTable {
  private entries?: readonly RouteEntry[];

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  allowedMethods(path: string): string[] {
    return methodsOf((this.entries ??= this.readRoutes()).filter((entry) => entry.matches(path)));
  }

  /** Every method some route answers to: what `OPTIONS *` reports. */
  methodsOfAnyRoute(): string[] {
    return methodsOf((this.entries ??= this.readRoutes()));
  }

  private readRoutes(): RouteEntry[] {
    const stack: ExpressLayer[] = this.adapterHost.httpAdapter.getInstance().router.stack;
    return stack.flatMap(({ route }) => {
      if (!route || typeof route.path !== 'string' || !isApplicationRoute(route.path)) return [];
      const matcher = match(route.path, { decode: false });
      const methods = Object.keys(route.methods)
        .filter((method) => method !== '_all')
        .map((method) => method.toUpperCase());
      return [{ matches: (path: string) => matcher(path) !== false, methods }];
    });
  }
}

function methodsOf(entries: readonly RouteEntry[]): string[] {
  const methods = new Set(entries.flatMap((entry) => entry.methods));
  // Express answers HEAD wherever it answers GET.
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

interface ExpressLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}
