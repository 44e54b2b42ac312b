import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request:
 * - `forward`: passes it to the service and its answer back;
 * - `lose-answer`: passes it to the service, which carries it out, then answers the client 503 in
 *   the Error shape instead (a gateway that lost the answer);
 * - `cut-after`: passes it on, then closes the client's connection without an answer;
 * - `hang`: never answers;
 * - an answer of its own, never passed on.
 */
export type Fault =
  | 'forward'
  | 'lose-answer'
  | 'cut-after'
  | 'hang'
  | { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> };

/** The requests the proxy saw, as `METHOD /path`, in order. */
export interface FaultProxy {
  readonly url: string;
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * A fault in front of the service, on 127.0.0.1: `plan` says, per request (and its number among
 * those with the same method and path, from 0), what happens to it.
 */
export async function startFaultProxy(target: string, plan: (request: IncomingMessage, nth: number) => Fault): Promise<FaultProxy> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const hanging = new Set<ServerResponse>();

  const pass = (incoming: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((answered, failed) => {
      const call = forward(
        { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => answered({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }));
        },
      );
      call.on('error', failed);
      call.end(body);
    });

  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const key = `${incoming.method} ${new URL(incoming.url!, 'http://proxy').pathname}`;
    const nth = seen.filter((request) => request === key).length;
    seen.push(key);
    const fault = plan(incoming, nth);
    if (fault === 'hang') {
      hanging.add(outgoing);
      return;
    }
    if (typeof fault === 'object') {
      outgoing.writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers }).end(JSON.stringify(fault.body));
      return;
    }
    const answer = await pass(incoming, Buffer.concat(chunks));
    if (fault === 'cut-after') {
      outgoing.socket?.destroy();
      return;
    }
    if (fault === 'lose-answer') {
      const body = { code: 'SERVICE_UNAVAILABLE', message: 'The gateway lost the answer.', status: 503 };
      outgoing.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' }).end(JSON.stringify(body));
      return;
    }
    outgoing.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const response of hanging) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}
