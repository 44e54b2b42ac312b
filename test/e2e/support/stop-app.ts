import type { NestExpressApplication } from '@nestjs/platform-express';
import { settledWithin } from './settled-within.js';

/**
 * How long a stopping service waits for its clients' connections before they are closed, as
 * main.ts does after its DRAIN_TIMEOUT_MS: `app.close()` alone waits for every one without a bound.
 */
export const STOP_GRACE_MS = 2_000;

/** How long the rest of the stop (the shutdown hooks, the database pool) may take once the connections are gone. */
const STOP_BOUND_MS = 10_000;

/**
 * Stops a service the tests started, within seconds whatever its clients hold: Node's
 * `server.close()` closes only connections idle after a request, and stops enforcing
 * HEADERS_TIMEOUT_MS, so a connection that never sent one (a browser's preconnect or spare socket)
 * holds the stop until its client closes it. Past `graceMs` the connections still open are closed
 * (said on stderr); a stop still unfinished STOP_BOUND_MS after that throws, naming what it waited for.
 */
export async function stopApp(app: NestExpressApplication, graceMs = STOP_GRACE_MS): Promise<void> {
  const server = app.getHttpServer();
  const closing = app.close();
  if (await settledWithin(closing, graceMs)) return closing;
  const open = await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? -1 : count)));
  process.stderr.write(`stopApp: ${open} connection(s) still open ${graceMs} ms after app.close(); closing them\n`);
  server.closeAllConnections();
  if (await settledWithin(closing, STOP_BOUND_MS)) return closing;
  throw new Error(`stopApp: app.close() unfinished ${STOP_BOUND_MS} ms after its connections were closed (a shutdown hook hangs)`);
}
