import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Request, Response } from 'express';
import { createLogger } from '../../src/logging/logger.js';
import { InFlightRequests } from '../../src/http/in-flight-requests.js';
import { accessLogLine } from '../../src/http/access-log.js';

/** Logs one finished request and returns the line written. */
function logOne(response: { statusCode: number; writableFinished?: boolean; locals?: object }, error?: Error): Record<string, any> {
  const lines: string[] = [];
  const logger = createLogger({ logLevel: 'info', logPretty: false }, { write: (line: string) => lines.push(line) });
  const request = {
    method: 'GET',
    originalUrl: '/v1/pets?limit=5&api_key=never-logged-either',
    headers: { authorization: 'Bearer never-logged' },
    requestId: 'request-1',
    route: { path: '/v1/pets' },
  };
  accessLogLine(logger)({
    request: request as unknown as Request,
    response: { writableFinished: true, getHeader: () => undefined, locals: {}, ...response } as unknown as Response,
    durationMs: 3.4,
    error,
  });
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

/** What pino itself writes for the same fields and message, the time left out. */
function withoutTime(line: string): string {
  return line.replace(/,"time":\d+/, '');
}

describe('the request log line', () => {
  it.each([
    ['an answer', { statusCode: 200 }, {}],
    ['a 5xx', { statusCode: 500 }, {}],
    ['an unfinished answer of a deprecated operation', { statusCode: 200, writableFinished: false, getHeader: () => '@1' }, {}],
    ['a request no route took, without a key, with text to escape', { statusCode: 404 }, { route: undefined, apiKey: undefined }],
  ])('is written as pino itself writes it: %s', (_, response, request) => {
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'info', logPretty: false }, { write: (line: string) => lines.push(line) });
    const finished = {
      request: {
        method: 'GET',
        originalUrl: '/v1/pets?name="Ren\u00e9"&x=\\',
        requestId: 'req "1"',
        route: { path: '/v1/pets' },
        apiKey: { keyId: 'key-7' },
        ...request,
      } as unknown as Request,
      response: { writableFinished: true, getHeader: () => undefined, locals: {}, ...response } as unknown as Response,
      durationMs: 12.6,
    };
    accessLogLine(logger)(finished);
    const { level, msg, ...fields } = JSON.parse(lines[0]) as Record<string, unknown>;
    delete fields.time;
    delete fields.pid;
    delete fields.hostname;
    logger[level === 50 ? 'error' : level === 40 ? 'warn' : 'info'](fields, msg as string);
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
  });

  it('has request id, method, redacted URL, route, status and duration, and no headers', () => {
    const line = logOne({ statusCode: 200 });
    expect(line).toMatchObject({
      level: 30,
      reqId: 'request-1',
      req: { id: 'request-1', method: 'GET', url: '/v1/pets?limit=5&api_key=[redacted]' },
      res: { statusCode: 200 },
      route: '/v1/pets',
      responseTime: 3,
      msg: 'GET /v1/pets?limit=5&api_key=[redacted] 200',
    });
    expect(line).not.toHaveProperty('aborted');
    expect(JSON.stringify(line)).not.toContain('never-logged');
  });

  it('logs a 5xx answer as an error without a made-up stack (the exception filter logs the cause)', () => {
    const line = logOne({ statusCode: 503 });
    expect(line).toMatchObject({ level: 50, res: { statusCode: 503 }, route: '/v1/pets', msg: expect.stringMatching(/ 503$/) });
    expect(line).not.toHaveProperty('err');
  });

  it('logs the 503 of an instance that is stopping at warn: expected in every deploy, nothing was done', () => {
    const inFlight = new InFlightRequests();
    inFlight.beforeApplicationShutdown();
    const response = { statusCode: 503, locals: {}, setHeader: () => undefined };
    expect(inFlight.admit(response as unknown as Response, performance.now())).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(logOne(response)).toMatchObject({
      level: 40,
      res: { statusCode: 503 },
      msg: expect.stringMatching(/ 503 \(instance stopping\)$/),
    });
  });

  it('keeps a real error of the response stream', () => {
    const line = logOne({ statusCode: 200 }, new Error('socket hang up'));
    expect(line).toMatchObject({ level: 50, err: { message: 'socket hang up' } });
  });

  it('says when the client left before the answer was complete', () => {
    expect(logOne({ statusCode: 200, writableFinished: false })).toMatchObject({ level: 30, aborted: true });
  });

  it('appends to LOG_FILE instead of stdout when one is configured, making its folder', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-log-')), 'nested', 'service.log');
    try {
      const logger = createLogger({ logLevel: 'info', logPretty: true, logFile: file });
      logger.info('first');
      logger.warn('second');
      logger.flush();
      await new Promise((done) => setTimeout(done, 100));
      const lines = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
        [30, 'first'],
        [40, 'second'],
      ]);
    } finally {
      await rm(dirname(dirname(file)), { recursive: true, force: true });
    }
  });
});
