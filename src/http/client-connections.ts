import { randomUUID } from 'node:crypto';
import { type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionBounds } from '../config/app-config.js';
import {
  type ApiException,
  HeadersTooLargeException,
  MalformedRequestException,
  RequestTooSlowException,
} from '../errors/api-exception.js';

/** How often Node looks for connections past their time-outs (its default, 30 s, would let a 10 s bound run to 40 s). */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Bounds what a client can hold on the server: headers and whole requests must arrive in time,
 * idle keep-alive connections close, open connections are optionally capped (Node closes the ones
 * over the cap at once), and what Node's HTTP parser refuses is answered in the Error shape, not
 * with Node's bare status line. Call before the server listens.
 */
export function boundClientConnections(server: Server, bounds: ConnectionBounds): void {
  server.headersTimeout = bounds.headersTimeoutMs;
  server.requestTimeout = bounds.requestTimeoutMs;
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs;
  // A createServer option that Node reads when the server starts listening (so it can be set
  // here, on the server Nest made); @types/node does not declare the property.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    CHECK_INTERVAL_MS,
    bounds.headersTimeoutMs,
  );
  if (bounds.maxConnections > 0) server.maxConnections = bounds.maxConnections;
  server.on('clientError', answerClientError);
}

/**
 * Node's 'clientError': the parser refused the request, or it timed out. The answer is written
 * straight to the socket (no request object exists yet, or its response never started), then the
 * connection closes: after a parse error nothing further on it can be trusted.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // `_httpMessage` is the response in progress, if any: Node's own handler checks it the same way.
  const response = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(toApiException(error.code)));
}

function toApiException(code: string | undefined): ApiException {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestTooSlowException();
  // The request line counts toward the header limit: a 100 KB URL lands here too.
  if (code === 'HPE_HEADER_OVERFLOW') return new HeadersTooLargeException();
  return new MalformedRequestException();
}

function rawErrorResponse(error: ApiException): string {
  const body = JSON.stringify(error.toBody());
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
