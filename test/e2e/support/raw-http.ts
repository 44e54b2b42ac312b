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
 * are written `gapMs` apart.
 */
export function rawExchange(port: number, chunks: readonly (string | Buffer)[], { gapMs = 0, waitMs = 5_000 } = {}): Promise<RawResponse> {
  return new Promise((done) => {
    const socket: Socket = connect(port, '127.0.0.1');
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
    chunks.forEach((chunk, i) => timers.push(setTimeout(() => socket.writable && socket.write(chunk), i * gapMs)));
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
