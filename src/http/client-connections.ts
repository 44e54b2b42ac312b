import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionBounds } from '../config/app-config.js';
import {
  type ApiException,
  ExpectationFailedException,
  HeadersTooLargeException,
  MalformedRequestException,
  MethodNotOnRouteException,
  RequestTooSlowException,
} from '../errors/api-exception.js';
import { deferIdleClose, responseStarted, setServerOptions } from '../platform/node-http-server.js';
import { limitConnections } from './connection-limits.js';

/** How often Node looks for connections past their time-outs (its default, 30 s, would let a 10 s bound run to 40 s). */
const CHECK_INTERVAL_MS = 1_000;

/**
 * How long idle keep-alive connections stay open once the server stops listening: a busy client
 * sends its next request the moment an answer arrives, so a connection idle at that instant often
 * has a request on its way, which closing it would reset. For this long such a request is answered
 * instead (503 with Connection: close, see InFlightRequests); then the idle ones close.
 */
export const STOP_IDLE_GRACE_MS = 100;

/**
 * Bounds what a client can hold on the server: headers and whole requests must arrive in time,
 * idle keep-alive connections close, open connections are capped, in all and per client address,
 * making room for new ones by closing those still waiting for their headers (limitConnections), and
 * what Node answers before any request reaches the application (a request its parser refuses, an
 * `Expect` it cannot meet, `CONNECT`) is answered in the Error shape, not with a bare status line
 * or a closed connection. `serverMethods` are the methods the API serves, for `CONNECT`'s `Allow`;
 * `isTrustedProxy` says which peers speak for many clients (TRUST_PROXY). Call before the server listens.
 */
export function boundClientConnections(
  server: Server,
  bounds: ConnectionBounds,
  serverMethods: () => readonly string[],
  isTrustedProxy: (address: string) => boolean,
): void {
  server.headersTimeout = bounds.headersTimeoutMs;
  server.requestTimeout = bounds.requestTimeoutMs;
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs;
  setServerOptions(server, {
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, bounds.headersTimeoutMs),
    // Node would answer an HTTP/1.1 request without Host with a bare 400; the edge answers it (toOriginForm).
    requireHostHeader: false,
    // A client that sent its whole request and then half-closed (shutdown(SHUT_WR): curl, netcat,
    // some HTTP/1.0 clients) still reads: Node would otherwise close the connection at its FIN, while
    // the request went on to be carried out, unanswered.
    httpAllowHalfOpen: true,
  });
  limitConnections(server, { maxConnections: bounds.maxConnections, maxPerAddress: bounds.maxConnectionsPerAddress, isTrustedProxy });
  // server.close() closes the idle connections at once (Node 19+); STOP_IDLE_GRACE_MS later instead.
  deferIdleClose(server, STOP_IDLE_GRACE_MS);
  server.on('clientError', answerClientError);
  // Without a listener Node answers 417 with no body; anything but 100-continue is an expectation we cannot meet.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const error = new ExpectationFailedException(request.headers.expect ?? '');
    const requestId = randomUUID();
    const body = JSON.stringify(error.toBody(requestId));
    response.writeHead(error.status, errorHeaders(error, body, requestId)).end(body);
  });
  // Without a listener Node closes the connection without a word: this server is no proxy.
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    socket.end(rawErrorResponse(new MethodNotOnRouteException('CONNECT', request.url ?? '', serverMethods())));
  });
}

/**
 * Node's 'clientError': the parser refused the request, or it timed out. The answer is written
 * straight to the socket (no request object exists yet, or its response never started), then the
 * connection closes: after a parse error nothing further on it can be trusted.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
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
  const requestId = randomUUID();
  const body = JSON.stringify(error.toBody(requestId));
  const headers = Object.entries(errorHeaders(error, body, requestId)).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`, ...headers, '', body].join('\r\n');
}

/** The headers of an error answered before the application saw the request: the connection closes after it. */
function errorHeaders(error: ApiException, body: string, requestId: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    ...error.headers,
    Connection: 'close',
  };
}
