import { type CanActivate, type ExecutionContext, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { absoluteUrl } from './request-origin.js';

export interface Deprecation {
  /** When the operation was first shipped as deprecated. */
  readonly since: Date;
  /** When it is removed. */
  readonly sunset: Date;
  /** The path of the replacement, under the API's base. */
  readonly successor: string;
}

/**
 * Marks every response of an operation deprecated: `Deprecation` (RFC 9745), `Sunset` (RFC 8594)
 * and `Link: <successor>; rel="successor-version"`, set once the request is admitted (after the
 * global guards), whatever the answer. The document's side is the operation's own
 * `deprecated: true` and description.
 */
export function DeprecatedRoute(deprecation: Deprecation): MethodDecorator {
  return UseGuards(new DeprecationHeaders(deprecation));
}

/** Admits every request, and marks its response deprecated. */
class DeprecationHeaders implements CanActivate {
  // The same for every response; only the successor's absolute URL may depend on the request.
  private readonly deprecationHeader: string;
  private readonly sunsetHeader: string;
  private readonly successor: string;

  constructor({ since, sunset, successor }: Deprecation) {
    this.deprecationHeader = `@${Math.floor(since.getTime() / 1000)}`;
    this.sunsetHeader = sunset.toUTCString();
    this.successor = successor;
  }

  canActivate(context: ExecutionContext): boolean {
    const [request, response] = context.getArgs<[Request, Response]>();
    response.setHeader('Deprecation', this.deprecationHeader);
    response.setHeader('Sunset', this.sunsetHeader);
    response.append('Link', `<${absoluteUrl(request, this.successor)}>; rel="successor-version"`);
    return true;
  }
}
