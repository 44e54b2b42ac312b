import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * The statements of one statement text, by their first word (`begin` for START TRANSACTION,
 * `insert_select`, and `select for update` for a read that locks): `;` outside quotes ends one.
 */
export function statementKinds(text: string): string[] {
  const kinds: string[] = [];
  let quote: string | undefined;
  let start = 0;
  const take = (end: number) => {
    const statement = text.slice(start, end).trim();
    const [first, second] = statement.toLowerCase().split(/\s+/, 2);
    if (!first) return;
    if (first === 'start' && second === 'transaction') kinds.push('begin');
    else if (/^insert\s+(?:ignore\s+)?into\s+\S+\s*(?:\([^)]*\)\s*)?select\b/i.test(statement)) kinds.push('insert_select');
    else if (first === 'select' && /\sfor\s+update(?:\s+skip\s+locked)?$/i.test(statement)) kinds.push('select for update');
    else kinds.push(first);
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === ';') {
      take(i);
      start = i + 1;
    }
  }
  take(text.length);
  return kinds;
}

/** What the service sent MySQL through a CountingProxy. */
export interface CountingProxy {
  readonly port: number;
  /** Commands sent: each a round trip (the client waits for its answer). */
  commands(): number;
  /**
   * Statements sent, by kind (statementKinds): in a text (COM_QUERY), prepared (`prepare …`), or
   * run as a prepared statement (`execute …`, of the text it was prepared with); any other command
   * by its number.
   */
  statements(): Map<string, number>;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 to the MySQL server at `target` that counts what its clients send, as CountingProxy says. */
export async function startCountingProxy(target: URL): Promise<CountingProxy> {
  let commands = 0;
  const statements = new Map<string, number>();
  const count = (kind: string) => statements.set(kind, (statements.get(kind) ?? 0) + 1);
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port || 3306), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // Without Nagle on both legs: a delayed ACK would add 40 ms to a request.
      socket.setNoDelay(true);
    }
    /** This connection's prepared statements' kinds, by the id the server gave each. */
    const prepared = new Map<number, string[]>();
    let preparing: string[] | undefined;
    // MySQL packets: a 3-byte length, a sequence id, the payload; a command starts at sequence 0.
    packets(client, (sequence, payload) => {
      if (sequence !== 0) return;
      commands++;
      const command = payload[0];
      // COM_QUERY and COM_STMT_PREPARE: the statements' text follows the command byte.
      if (command === 0x03) for (const kind of statementKinds(payload.toString('utf8', 1))) count(kind);
      else if (command === 0x16) {
        preparing = statementKinds(payload.toString('utf8', 1));
        for (const kind of preparing) count(`prepare ${kind}`);
      } else if (command === 0x17) {
        // COM_STMT_EXECUTE: the statement's id follows the command byte.
        for (const kind of prepared.get(payload.readUInt32LE(1)) ?? ['unknown']) count(`execute ${kind}`);
      } else count(`command 0x${command.toString(16)}`);
    });
    // The answer to a prepare: COM_STMT_PREPARE_OK (0x00, then the statement's id) as its first packet.
    packets(upstream, (sequence, payload) => {
      if (!preparing || sequence !== 1) return;
      if (payload[0] === 0x00) prepared.set(payload.readUInt32LE(1), preparing);
      preparing = undefined;
    });
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  proxy.unref();
  return {
    port: (proxy.address() as AddressInfo).port,
    commands: () => commands,
    statements: () => new Map(statements),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => proxy.close(closed));
    },
  };
}

/** Calls `each` with every whole MySQL packet `socket` receives, in order. */
function packets(socket: Socket, each: (sequence: number, payload: Buffer) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUIntLE(0, 3);
      if (pending.length < 4 + length) break;
      each(pending[3], pending.subarray(4, 4 + length));
      pending = pending.subarray(4 + length);
    }
  });
}
