import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/*
 * Node's HTTP server where it has no public face. Written for the Node majors package.json's
 * engines name (22, 24, 26): test/unit/platform-node-http.spec.ts pins them and checks each
 * function's assumption on the Node it runs on.
 */

/**
 * Has `server.close()` close the idle keep-alive connections `graceMs` later instead of at once
 * (Node 19+ closes them in close(), through the server's own closeIdleConnections): a busy client's
 * next request is often on its way on a connection idle at that instant. They close after the poll
 * phase that follows the grace, which reads what arrived meanwhile: a process the machine did not
 * run for the grace would otherwise run its timers first and reset the requests waiting to be read.
 * Measured: closed at once, such a request meets a reset; stopping.e2e-spec.ts holds every one answered.
 */
export function deferIdleClose(server: Server, graceMs: number): void {
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => void setTimeout(() => setImmediate(closeIdleConnections), graceMs).unref();
}

/**
 * Whether the response under way on `socket`, if any, has sent its headers: Node's own
 * 'clientError' handler asks the same of the socket's `_httpMessage`. Only an answer not started
 * may be replaced by an error's.
 * Measured: Node tells it nowhere public; a copy kept per request would have to follow its queue of pipelined responses.
 */
export function responseStarted(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage?.headersSent === true;
}

/** What setServerOptions sets. */
export interface LateServerOptions {
  /** How often Node looks for connections past their time-outs (createServer's option of the name). */
  readonly connectionsCheckingInterval: number;
  /** Whether an HTTP/1.1 request without Host is refused with a bare 400 (createServer's option). */
  readonly requireHostHeader: boolean;
  /** Whether a request whose client half-closed its side (FIN) is still answered. */
  readonly httpAllowHalfOpen: boolean;
}

/**
 * Sets on `server`, made already (Nest makes it), what Node reads from the server itself: the first
 * when it starts listening, the others for each connection. Call before it listens. Without them a
 * 10 s header bound runs to 40 s, a request without Host gets a bare 400, and a client that sent its
 * request and half-closed gets no answer (test/e2e/hostile-clients.e2e-spec.ts).
 * Measured: Nest's adapter passes http.createServer no options, and httpAllowHalfOpen is none.
 */
export function setServerOptions(server: Server, options: LateServerOptions): void {
  Object.assign(server, options);
}
