import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { deferIdleClose, responseStarted, setServerOptions } from '../../src/platform/node-http-server.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((closed) => server.close(closed))));
});

/** A server on a free port of 127.0.0.1, `prepare`d before it listens, and a raw connection to it. */
async function serve(handler: RequestListener, prepare: (server: Server) => void = () => undefined): Promise<() => Socket> {
  const server = createServer(handler);
  servers.push(server);
  prepare(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return () => connect((server.address() as AddressInfo).port, '127.0.0.1');
}

/** What the server sent on `socket` until it closed it, or until `ms` passed. */
function received(socket: Socket, ms = 2_000): Promise<{ text: string; closed: boolean }> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((done) => {
    const timer = setTimeout(() => done({ text, closed: false }), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      done({ text, closed: true });
    });
  });
}

const until = (socket: Socket, text: string) =>
  new Promise<void>((arrived) => {
    let seen = '';
    const listener = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.includes(text)) {
        socket.off('data', listener);
        arrived();
      }
    };
    socket.on('data', listener);
  });

const OK: RequestListener = (_request, response) => response.end('ok');

/**
 * What src/platform/node-http-server.ts assumes of Node's HTTP server, on the Node running the
 * tests: close() closes idle connections through the server's own closeIdleConnections, libuv
 * accepts one queued connection a turn and close() resets those still queued, deferIdleClose reads
 * what came within its grace before it closes, a socket's
 * `_httpMessage` is the response under way when a client error comes, and the server reads the
 * options set on it after it was made. Another major may do otherwise: check, then add it.
 */
describe("Node's HTTP server, as src/platform/node-http-server.ts uses it", () => {
  it('is a major the functions were written for (package.json engines)', () => {
    expect(['22', '24', '26']).toContain(process.versions.node.split('.')[0]);
  });

  it.each([
    ['at once', undefined],
    ['after the grace deferIdleClose gives', 500],
  ])('closes an idle keep-alive connection on close() %s', async (_, graceMs) => {
    const server = createServer(OK);
    servers.push(server);
    if (graceMs !== undefined) deferIdleClose(server, graceMs);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(socket, 'ok');
    const closing = received(socket);
    const closedFrom = Date.now();
    server.close();
    servers.splice(servers.indexOf(server), 1);
    expect((await closing).closed).toBe(true);
    const afterMs = Date.now() - closedFrom;
    if (graceMs === undefined) expect(afterMs).toBeLessThan(300);
    else expect(afterMs).toBeGreaterThanOrEqual(graceMs - 20);
  });

  describe('with connections queued in the kernel, their handshakes done while the event loop was busy', () => {
    /** A listening server, and `count` connections to it made while this thread is blocked, so none is accepted yet. */
    async function queued(count: number) {
      const server = createServer(OK);
      servers.push(server);
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      const port = (server.address() as AddressInfo).port;
      const sockets = Array.from({ length: count }, () => connect(port, '127.0.0.1'));
      await new Promise((connecting) => process.nextTick(connecting)); // connect() starts on the next tick
      for (const blockedUntil = Date.now() + 100; Date.now() < blockedUntil;);
      return { server, sockets };
    }

    it('accepts one of them a turn of the event loop', async () => {
      const { server, sockets } = await queued(5);
      let accepted = 0;
      server.on('connection', () => accepted++);
      await new Promise((turned) => setImmediate(turned));
      expect(accepted).toBe(1);
      sockets.forEach((socket) => socket.destroy());
    });

    it('resets them when close() stops listening', async () => {
      const { server, sockets } = await queued(5);
      server.close();
      servers.splice(servers.indexOf(server), 1);
      const outcomes = await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<string>((done) => {
              socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? ''));
              socket.on('data', () => done('answered'));
              socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
            }),
        ),
      );
      expect(outcomes).toEqual(Array(5).fill('ECONNRESET'));
    });
  });

  it('reads, with deferIdleClose, a request that came within the grace though the process ran only after it', async () => {
    const server = createServer(OK);
    servers.push(server);
    deferIdleClose(server, 50);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(socket, 'ok');
    server.close();
    servers.splice(servers.indexOf(server), 1);
    const answered = received(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // Not running past the grace, as a process the machine does not schedule: the request waits unread.
    for (const blockedUntil = Date.now() + 150; Date.now() < blockedUntil;);
    expect((await answered).text).toMatch(/^HTTP\/1.1 200 [^]*ok$/);
  });

  it.each([
    ['has sent its headers', true],
    ['has not sent them yet', false],
  ])('finds, on a client error, the response under way on the socket when it %s', async (_, headersFirst) => {
    const seen: boolean[] = [];
    const socket = (
      await serve(
        (_request, response) => {
          if (headersFirst) response.writeHead(200, { 'Content-Length': '2' }).flushHeaders();
          setTimeout(() => response.end('ok'), 100);
        },
        (server) =>
          server.on('clientError', (_error, errored: Socket) => {
            seen.push(responseStarted(errored));
            errored.destroy();
          }),
      )
    )();
    // A valid request, then a malformed one pipelined behind it while its answer is under way.
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\nG@T / HTTP/1.1\r\nHost: x\r\n\r\n');
    await received(socket);
    expect(seen).toEqual([headersFirst]);
  });

  it('finds no response under way on a new connection', async () => {
    const seen: boolean[] = [];
    const socket = (await serve(OK, (server) => server.on('connection', (connection: Socket) => seen.push(responseStarted(connection)))))();
    socket.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await received(socket);
    expect(seen).toEqual([false]);
  });

  describe('reads the options set on it after it was made', () => {
    const options = { connectionsCheckingInterval: 100, requireHostHeader: false, httpAllowHalfOpen: true };

    it.each([
      ['refuses', undefined, /^HTTP\/1.1 400 /],
      ['answers, with requireHostHeader false,', options, /^HTTP\/1.1 200 /],
    ])('%s an HTTP/1.1 request without Host', async (_, set, answer) => {
      const socket = (await serve(OK, (server) => set && setServerOptions(server, set)))();
      socket.write('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect((await received(socket)).text).toMatch(answer);
    });

    it.each([
      ['does not answer', undefined, ''],
      ['answers, with httpAllowHalfOpen,', options, 'ok'],
    ])('%s a request whose client half-closed before the answer', async (_, set, body) => {
      const socket = (
        await serve(
          (_request, response) => void setTimeout(() => response.end('ok'), 50),
          (server) => set && setServerOptions(server, set),
        )
      )();
      socket.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      const { text } = await received(socket);
      expect(text.endsWith('ok') ? 'ok' : '').toBe(body);
    });

    it.each([
      ['every 30 s by default: still open after 1.5 s', undefined, false],
      ['as often as connectionsCheckingInterval says', options, true],
    ])('looks for connections past their header time-out %s', async (_, set, closed) => {
      const socket = (
        await serve(OK, (server) => {
          server.headersTimeout = 300;
          server.requestTimeout = 300;
          if (set) setServerOptions(server, set);
        })
      )();
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      const answered = await received(socket, 1_500);
      expect(answered.closed).toBe(closed);
      socket.destroy();
    });
  });
});
