import { connect, type Socket } from 'node:net';

export interface RawResponse {
  /** The status code of the first response, or undefined when none came. */
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Whether the server closed the connection (within the wait). */
  readonly closed: boolean;
  /** Milliseconds from the first byte sent to the close (or to the end of the wait). */
  readonly ms: number;
}

/**
 * Sends bytes that no HTTP client would send (the parser's edge cases, slow or silent clients)
 * and reads what comes back until the server closes the connection or `waitMs` passes. `chunks`
 * are written `gapMs` apart, from the loopback address `from` if given; with `halfClose`, the last is followed by a FIN (shutdown(SHUT_WR), as
 * `curl`, netcat and some HTTP/1.0 clients do once they have sent their request).
 */
export function rawExchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  { gapMs = 0, waitMs = 5_000, halfClose = false, from = undefined as string | undefined } = {},
): Promise<RawResponse> {
  return new Promise((done) => {
    // `from`: a loopback address of the client's own (127.0.0.2, …), as the server counts clients by address.
    const socket: Socket = connect({ port, host: '127.0.0.1', localAddress: from });
    const started = Date.now();
    let received = Buffer.alloc(0);
    const timers: NodeJS.Timeout[] = [];
    const finish = (closed: boolean) => {
      timers.forEach(clearTimeout);
      socket.destroy();
      done({ ...parse(received.toString('latin1')), closed, ms: Date.now() - started });
    };
    socket.on('data', (data) => (received = Buffer.concat([received, data])));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    chunks.forEach((chunk, i) =>
      timers.push(
        setTimeout(() => {
          if (!socket.writable) return;
          socket.write(chunk);
          if (halfClose && i === chunks.length - 1) socket.end();
        }, i * gapMs),
      ),
    );
    timers.push(setTimeout(() => finish(false), waitMs));
  });
}

function parse(text: string): Pick<RawResponse, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end === -1) return { headers: {}, body: text };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const body = text.slice(end + 4, length === undefined ? undefined : end + 4 + length);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/**
 * Connections that send a request line and then a header line every `gapMs`, never finishing their
 * headers (a slow-header attack), from `addresses` in turn; each the server closes is opened again
 * until `stop()`. `opened` counts them all.
 */
export class SlowHeaderFlood {
  opened = 0;
  private readonly sockets = new Set<Socket>();
  private running = true;
  private readonly dribble: NodeJS.Timeout;

  constructor(
    private readonly port: number,
    connections: number,
    private readonly addresses: readonly string[],
    gapMs = 500,
  ) {
    for (let i = 0; i < connections; i++) this.open(i);
    this.dribble = setInterval(() => {
      for (const socket of this.sockets) if (socket.writable) socket.write(`X-Slow: ${this.opened}\r\n`);
    }, gapMs);
  }

  private open(n: number): void {
    const socket = connect({ port: this.port, host: '127.0.0.1', localAddress: this.addresses[n % this.addresses.length] });
    this.opened++;
    this.sockets.add(socket);
    socket.on('connect', () => socket.write('GET /v1/pets HTTP/1.1\r\nHost: flood\r\n'));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      // Reopened after a pause, as an attacker's loop would: bounded, a few hundred a second at most.
      if (this.running) setTimeout(() => this.running && this.open(n), 20);
    });
  }

  stop(): void {
    this.running = false;
    clearInterval(this.dribble);
    for (const socket of this.sockets) socket.destroy();
  }
}
