/**
 * A slow-client attack on a running service, for `npm run bench -- --slow-clients`: `connections`
 * sockets from `addresses` loopback addresses (127.0.0.1 alone, or 127.1.0.0/16 in turn) that each
 * send a request line and then a header line a second, never finishing their headers, reopened as
 * the service closes them (HEADERS_TIMEOUT_MS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS), for
 * `seconds`; then nothing for `afterSeconds`. Meanwhile another client (127.0.0.2) sends a listPets
 * on a new connection every 100 ms. Reports the service's resident memory before, at its peak, and
 * each 5 s after, so that memory that stays at its peak shows, and how many of the other client's
 * requests were answered within 2 s.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface SlowClientAttack {
  readonly connections: number;
  /** How many client addresses the connections come from. */
  readonly addresses: number;
  readonly seconds: number;
  readonly afterSeconds: number;
}

export interface SlowClientFigures extends SlowClientAttack {
  /** Sockets opened in all (each the service closed is opened again while the attack lasts). */
  readonly opened: number;
  readonly beforeMb: number;
  readonly peakMb: number;
  /** Resident memory every 5 s after the attack. */
  readonly afterMb: readonly number[];
  /** The other client's requests during the attack, and those answered 200 within 2 s. */
  readonly otherClient: { readonly sent: number; readonly answered: number };
}

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

function residentMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
}

/** The n-th attacking address: 127.0.0.1 for one, else 127.1.0.1, 127.1.0.2, … (Linux answers all of 127/8). */
function attackerAddress(n: number, addresses: number): string {
  if (addresses === 1) return '127.0.0.1';
  const i = (n % addresses) + 1;
  return `127.1.${i >> 8}.${i & 255}`;
}

/** One listPets from 127.0.0.2 on a connection of its own: whether it was answered 200 within 2 s. */
function otherClientRequest(port: number, apiKey: string): Promise<boolean> {
  return new Promise((done) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.2',
        path: '/v1/pets?limit=1',
        agent: false,
        timeout: 2_000,
        headers: { Authorization: `Bearer ${apiKey}` },
      },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode === 200));
        response.on('error', () => done(false));
      },
    );
    call.on('timeout', () => call.destroy());
    call.on('error', () => done(false));
    call.end();
  });
}

export async function slowClientAttack(port: number, pid: number, apiKey: string, attack: SlowClientAttack): Promise<SlowClientFigures> {
  const { connections, addresses, seconds, afterSeconds } = attack;
  const beforeMb = residentMb(pid);
  const sockets = new Set<Socket>();
  const started = Date.now();
  const attacking = () => Date.now() - started < seconds * 1000;
  let opened = 0;
  const openOne = (n: number) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: attackerAddress(n, addresses) });
    opened++;
    sockets.add(socket);
    socket.on('connect', () => socket.write('GET /v1/pets HTTP/1.1\r\nHost: bench\r\n'));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (attacking()) setTimeout(() => openOne(n), 10);
    });
  };
  for (let i = 0; i < connections; i++) {
    openOne(i);
    if (i % 200 === 199) await sleep(20);
  }
  const dribble = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write(`X-Slow-${opened % 1000}: a\r\n`);
  }, 1000);
  const otherClient = { sent: 0, answered: 0 };
  const other = (async () => {
    while (attacking()) {
      otherClient.sent++;
      if (await otherClientRequest(port, apiKey)) otherClient.answered++;
      await sleep(100);
    }
  })();
  let peakMb = beforeMb;
  while (attacking()) {
    await sleep(500);
    peakMb = Math.max(peakMb, residentMb(pid));
  }
  await other;
  clearInterval(dribble);
  for (const socket of sockets) socket.destroy();
  const afterMb: number[] = [];
  for (let waited = 0; waited < afterSeconds; waited += 5) {
    await sleep(5_000);
    afterMb.push(residentMb(pid));
  }
  return { ...attack, opened, beforeMb, peakMb, afterMb, otherClient };
}
