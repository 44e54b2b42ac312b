import type { Logger } from 'pino';
import { isDatabaseUnavailableAnswer } from '../errors/database-unavailable.js';
import type { FinishedRequest } from './edge.js';

/** How often an outage that goes on is reported, with the count of the requests it refused. */
export const OUTAGE_REPORT_INTERVAL_MS = 10_000;

/**
 * An outage in the log as a few lines, not one error per refused request (thousands a minute): its
 * start at `error` with the first cause, every 10 s while it lasts the count of the requests
 * answered 503 at `warn`, and its end at `warn` with its length and count. The end is the first
 * success that needed the database: a keyed operation (each reads or writes it) or readiness.
 * The metrics count every 503 as before.
 */
export function databaseOutageLog(logger: Logger): (finished: FinishedRequest) => void {
  let outage: { started: number; refused: number; reportedAt: number; sinceReport: number } | undefined;
  return ({ request, response }) => {
    if (isDatabaseUnavailableAnswer(response)) {
      const now = Date.now();
      if (!outage) {
        outage = { started: now, refused: 0, reportedAt: now, sinceReport: 0 };
        logger.error(
          { outage: 'started', cause: response.locals.databaseUnavailable },
          `Database unavailable (${response.locals.databaseUnavailable}): requests that need it are answered 503 until it is back`,
        );
      }
      outage.refused++;
      outage.sinceReport++;
      if (now - outage.reportedAt >= OUTAGE_REPORT_INTERVAL_MS) {
        logger.warn(
          { outage: 'ongoing', refused: outage.sinceReport, seconds: Math.round((now - outage.started) / 1000) },
          `Database still unavailable: ${outage.sinceReport} requests answered 503 in the last ${Math.round((now - outage.reportedAt) / 1000)} s`,
        );
        outage.reportedAt = now;
        outage.sinceReport = 0;
      }
    } else if (outage && response.statusCode < 300 && (request.apiKey || request.route?.path === '/health/ready')) {
      const seconds = (Date.now() - outage.started) / 1000;
      logger.warn(
        { outage: 'ended', refused: outage.refused, seconds: Math.round(seconds * 10) / 10 },
        `Database available again after ${seconds.toFixed(1)} s; ${outage.refused} requests were answered 503`,
      );
      outage = undefined;
    }
  };
}
