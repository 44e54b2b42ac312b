/**
 * A slow-client attack on a running service, for `npm run bench -- --slow-clients`: `connections`
 * sockets that each send a request line and then a header line a second, never finishing their
 * headers, reopened as the service closes them (HEADERS_TIMEOUT_MS, MAX_CONNECTIONS), for `seconds`;
 * then nothing for `afterSeconds`. Reports the service's resident memory before, at its peak, and
 * each 5 s after, so that memory that stays at its peak shows.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface SlowClientFigures {
  readonly connections: number;
  readonly seconds: number;
  /** Sockets opened in all (each the service closed is opened again while the attack lasts). */
  readonly opened: number;
  readonly beforeMb: number;
  readonly peakMb: number;
  /** Resident memory every 5 s after the attack. */
  readonly afterMb: readonly number[];
}

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

function residentMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
}

export async function slowClientAttack(
  port: number,
  pid: number,
  connections: number,
  seconds: number,
  afterSeconds: number,
): Promise<SlowClientFigures> {
  const beforeMb = residentMb(pid);
  const sockets = new Set<Socket>();
  const started = Date.now();
  const attacking = () => Date.now() - started < seconds * 1000;
  let opened = 0;
  const openOne = () => {
    const socket = connect(port, '127.0.0.1');
    opened++;
    sockets.add(socket);
    socket.on('connect', () => socket.write('GET /v1/pets HTTP/1.1\r\nHost: bench\r\n'));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (attacking()) setTimeout(openOne, 10);
    });
  };
  for (let i = 0; i < connections; i++) {
    openOne();
    if (i % 200 === 199) await sleep(20);
  }
  const dribble = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write(`X-Slow-${opened % 1000}: a\r\n`);
  }, 1000);
  let peakMb = beforeMb;
  while (attacking()) {
    await sleep(500);
    peakMb = Math.max(peakMb, residentMb(pid));
  }
  clearInterval(dribble);
  for (const socket of sockets) socket.destroy();
  const afterMb: number[] = [];
  for (let waited = 0; waited < afterSeconds; waited += 5) {
    await sleep(5_000);
    afterMb.push(residentMb(pid));
  }
  return { connections, seconds, opened, beforeMb, peakMb, afterMb };
}
