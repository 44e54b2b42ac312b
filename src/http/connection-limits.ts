import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimitsOptions {
  /** At most this many open connections; 0: no cap. */
  readonly maxConnections: number;
  /** At most this many from one client address; 0: no cap. */
  readonly maxPerAddress: number;
  /** Whether a peer is a proxy TRUST_PROXY trusts: it speaks for many clients, and bounds them itself. */
  readonly isTrustedProxy: (address: string) => boolean;
}

/**
 * Who may hold the server's connections, so that slow clients cannot starve the others.
 *
 * One client address holds at most `maxPerAddress` connections: one more is closed at once. At
 * `maxConnections`, a new connection is not refused: the oldest connection still waiting for a
 * request's headers (trickling them in, or idle between requests) is closed to make room. A flood
 * of slow connections, from one address or ten thousand, thus only ever displaces itself, while a
 * client that sends its request at once is served. Only when every open connection is busy with a
 * request is the new one closed.
 *
 * Node's own `server.maxConnections` refuses every new connection at the cap instead: 5,500 slow
 * connections from one address left another client 8 answers of 174.
 */
export function limitConnections(server: Server, { maxConnections, maxPerAddress, isTrustedProxy }: ConnectionLimitsOptions): void {
  /** Every open connection, and the address it is counted against (none for a trusted proxy). */
  const open = new Map<Socket, string | undefined>();
  /** Connections waiting for a request's headers, oldest first (a Set iterates in insertion order). */
  const waiting = new Set<Socket>();
  const perAddress = new Map<string, number>();

  /** Forgets a connection at once (closing takes a turn of the event loop); a second call does nothing. */
  const forget = (socket: Socket) => {
    if (!open.has(socket)) return;
    const address = open.get(socket);
    open.delete(socket);
    waiting.delete(socket);
    if (address === undefined) return;
    const left = perAddress.get(address)! - 1;
    if (left === 0) perAddress.delete(address);
    else perAddress.set(address, left);
  };

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    const address = maxPerAddress > 0 && !isTrustedProxy(peer) ? peer : undefined;
    if (address !== undefined && (perAddress.get(address) ?? 0) >= maxPerAddress) {
      socket.destroy();
      return;
    }
    if (maxConnections > 0 && open.size >= maxConnections) {
      const oldest = waiting.values().next();
      if (oldest.done) {
        socket.destroy();
        return;
      }
      forget(oldest.value);
      oldest.value.destroy();
    }
    open.set(socket, address);
    if (address !== undefined) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    waiting.add(socket);
    socket.once('close', () => forget(socket));
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    waiting.delete(socket);
    // Answered and kept alive: waiting for the next request's headers, the newest of those that wait.
    response.once('finish', () => {
      if (open.has(socket) && !socket.destroyed) waiting.add(socket);
    });
  });
}
