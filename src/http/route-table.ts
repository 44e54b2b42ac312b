import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { match } from 'path-to-regexp';
import {
  type ApiException,
  MethodNotOnRouteException,
  RouteNotFoundException,
  ValidationFailedException,
} from '../errors/api-exception.js';
import { ALL_METHODS, ApiExpressAdapter } from './api-express-adapter.js';
import { ACCEPT_PATCH } from './json-body.js';

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
  /** Whether the route's pattern matches the path; throws URIError when its parameters do not decode, as Express does. */
  readonly matches: (path: string) => boolean;
  readonly methods: readonly string[];
  /** Registered with `all`: it answers every method. */
  readonly allMethods: boolean;
}

/**
 * Which routes take a request, read from those registered through the adapter, in Express's order
 * (routes are final once the app has started), with the path-to-regexp version Express matches
 * with and the same defaults, so that its answers are Express's: why no route takes a request
 * (404, 405 with `Allow`, a malformed URL), and which methods the server answers to at all
 * (`OPTIONS *`).
 */
@Injectable()
export class RouteTable {
  private entries?: readonly RouteEntry[];

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * Why no route takes `method path`, as the error to answer; undefined when a route takes it. Like
   * Express, it tries the routes in order, and the first whose pattern matches a path with a
   * parameter that does not decode makes the whole URL malformed.
   */
  refusal(method: string, path: string): ApiException | undefined {
    const matching: RouteEntry[] = [];
    for (const entry of this.routes()) {
      try {
        if (!entry.matches(path)) continue;
      } catch {
        return new ValidationFailedException('The request URL is malformed.');
      }
      if (entry.allMethods || entry.methods.includes(method) || (method === 'HEAD' && entry.methods.includes('GET'))) return undefined;
      matching.push(entry);
    }
    if (matching.length === 0) return new RouteNotFoundException(method, path);
    const allowed = methodsOf(matching);
    // RFC 5789 §3.1: what a resource that takes PATCH takes, told to whoever asks it which methods it allows.
    return new MethodNotOnRouteException(method, path, allowed, allowed.includes('PATCH') ? ACCEPT_PATCH : {});
  }

  /** Every method some route answers to: what `OPTIONS *` reports. */
  methodsOfAnyRoute(): string[] {
    return methodsOf(this.routes());
  }

  private routes(): readonly RouteEntry[] {
    return (this.entries ??= this.readRoutes());
  }

  private readRoutes(): RouteEntry[] {
    const adapter = this.adapterHost.httpAdapter;
    if (!(adapter instanceof ApiExpressAdapter)) throw new Error('RouteTable reads the routes registered through ApiExpressAdapter');
    return adapter.routes
      .filter(({ path }) => isApplicationRoute(path))
      .map(({ method, path }) => {
        const matcher = match(path);
        const allMethods = method === ALL_METHODS;
        return { matches: (target: string) => matcher(target) !== false, methods: allMethods ? [] : [method], allMethods };
      });
  }
}

function methodsOf(entries: readonly RouteEntry[]): string[] {
  const methods = new Set(entries.flatMap((entry) => entry.methods));
  // Express answers HEAD wherever it answers GET.
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
