import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The service's configuration for delivering to a receiver: http to 127.0.0.1, retried after 1 s
 * and 1 s, each attempt cut at 1.5 s (the schedule in seconds, not days).
 */
export const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_SCHEDULE: '0,1,1',
  WEBHOOK_TIMEOUT_MS: '1500',
};

/** One delivery as the receiver got it: the raw body, as a signature is checked against. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived (Date.now()). */
  readonly at: number;
}

/** What the receiver does with the nth request (from 0) to a path: answer a status (and a body), or something worse. */
export type Reply = number | { status: number; body: string } | 'hang' | 'trickle' | 'huge';

export interface WebhookReceiver {
  /** The base URL, http://127.0.0.1:PORT */
  readonly url: string;
  readonly received: Received[];
  /** Resolves when `count` requests to `path` have arrived, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request; `plan` picks each reply (200 by default). */
export async function startReceiver(plan: (path: string, nth: number) => Reply = () => 200): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const nth = received.filter((delivery) => delivery.path === path).length;
    received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
    const reply = plan(path, nth);
    open.add(response);
    response.on('close', () => open.delete(response));
    if (reply === 'hang') return;
    if (reply === 'trickle') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 100);
      timers.add(timer);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (reply === 'huge') {
      // 1 GiB, were it all read: written as long as the other side takes it.
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(2 ** 30) });
      const block = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 2 ** 30 && !response.destroyed) {
          sent += block.length;
          if (!response.write(block)) return void response.once('drain', pump);
        }
      };
      pump();
      return;
    }
    if (typeof reply === 'object') response.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.body);
    else response.writeHead(reply, { 'content-type': 'text/plain' }).end(`answered ${reply}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async waitFor(path, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((delivery) => delivery.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`${path}: ${matching.length} of ${count} deliveries after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
