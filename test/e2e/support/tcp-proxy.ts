import { createServer, type AddressInfo, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy between the service and MySQL, so that tests can take the database away without
 * touching the machine's server. `cut('reset')` drops every connection and refuses new ones at
 * once; `cut('silent')` drops them and then accepts new ones without ever answering, like a
 * network that lost its route. `partition()` is a silent partition (a failover, a dropped route):
 * every connection stays open on both sides and nothing crosses, in either direction, until
 * `restore()` delivers what was held and passes traffic again; `failOver()` passes traffic on new
 * connections while the ones open during the partition stay open and silent for ever.
 * `rewrite(from, to)` changes what the service sends, as a proxy that does not keep its session would.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private state: 'open' | 'reset' | 'silent' | 'partitioned' = 'open';
  /** Connections a fail-over left behind: open, and nothing ever crosses them again. */
  private readonly dead = new WeakSet<Socket>();
  /** What crossed neither way during a partition, in order. */
  private readonly held: (() => void)[] = [];
  /** cutAt(): the text of a statement that, when the service sends it, cuts the connections instead. */
  private cutBefore?: string;
  /** rewrite(): text the service sends, and what reaches the database instead. */
  private rewriting?: { from: Buffer; to: Buffer };

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await new Promise<void>((listening) => proxy.server.listen(0, '127.0.0.1', listening));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  cut(how: 'reset' | 'silent' = 'reset'): void {
    this.state = how;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /**
   * Cuts every connection (reset) when the service next sends a statement containing `text`, before
   * it reaches the database: an outage in the middle of a request, between two of its statements.
   */
  cutAt(text: string): void {
    this.cutBefore = text;
  }

  /** Replaces `from` with `to` (of as many bytes) wherever the service sends it, until `rewrite()` with no text. */
  rewrite(from?: string, to?: string): void {
    if (from === undefined || to === undefined) return void (this.rewriting = undefined);
    if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('a rewrite keeps the length of the packet');
    this.rewriting = { from: Buffer.from(from), to: Buffer.from(to) };
  }

  /** How many chunks a partition holds now (what the service or the server sent since it began). */
  get heldCount(): number {
    return this.held.length;
  }

  partition(): void {
    this.state = 'partitioned';
  }

  failOver(): void {
    for (const socket of this.sockets) this.dead.add(socket);
    this.held.splice(0);
    this.state = 'open';
  }

  restore(): void {
    this.state = 'open';
    this.cutBefore = undefined;
    for (const deliver of this.held.splice(0)) deliver();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((closed) => this.server.close(closed));
  }

  private accept(client: Socket): void {
    if (this.state === 'reset') {
      client.resetAndDestroy();
      return;
    }
    this.track(client);
    if (this.state === 'silent') return;
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    this.relay(client, upstream, true);
    this.relay(upstream, client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }

  private relay(from: Socket, to: Socket, fromService = false): void {
    from.on('data', (chunk: Buffer) => {
      if (this.dead.has(from)) return;
      if (fromService && this.cutBefore !== undefined && chunk.includes(this.cutBefore)) {
        this.cutBefore = undefined;
        this.cut('reset');
        return;
      }
      if (fromService && this.rewriting) chunk = rewritten(chunk, this.rewriting);
      if (this.state === 'partitioned') this.held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}

/** `chunk` with every `from` replaced by `to`, of the same length. */
function rewritten(chunk: Buffer, { from, to }: { from: Buffer; to: Buffer }): Buffer {
  for (let at = chunk.indexOf(from); at >= 0; at = chunk.indexOf(from, at + from.length)) to.copy(chunk, at);
  return chunk;
}
