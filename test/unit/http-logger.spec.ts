import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHttpLogger } from '../../src/logging/http-logger.js';

/** Runs one request through the request logger and returns the line it wrote. */
function logOne(statusCode: number, finish: (response: EventEmitter) => void): Record<string, any> {
  const lines: string[] = [];
  const logger = createHttpLogger({ logLevel: 'info', logPretty: false }, { write: (line: string) => lines.push(line) });
  const request = Object.assign(new EventEmitter(), {
    method: 'GET',
    url: '/v1/pets?limit=5',
    headers: { authorization: 'Bearer never-logged' },
    requestId: 'request-1',
    route: { path: '/v1/pets' },
  });
  const response = Object.assign(new EventEmitter(), { statusCode, headersSent: true });
  logger(request as unknown as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  finish(response);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe('the request logger', () => {
  it('writes one line with request id, method, URL, route, status and duration, and no headers', () => {
    const line = logOne(200, (response) => response.emit('finish'));
    expect(line).toMatchObject({
      level: 30,
      reqId: 'request-1',
      req: { id: 'request-1', method: 'GET', url: '/v1/pets?limit=5' },
      res: { statusCode: 200 },
      route: '/v1/pets',
      responseTime: expect.any(Number),
      msg: 'GET /v1/pets?limit=5 200',
    });
    expect(JSON.stringify(line)).not.toContain('never-logged');
  });

  it('logs a 5xx answer as an error without a made-up stack (the exception filter logs the cause)', () => {
    const line = logOne(503, (response) => response.emit('finish'));
    expect(line).toMatchObject({ level: 50, res: { statusCode: 503 }, route: '/v1/pets', msg: 'GET /v1/pets?limit=5 503' });
    expect(line).not.toHaveProperty('err');
  });

  it('keeps a real error of the response stream', () => {
    const line = logOne(200, (response) => response.emit('error', new Error('socket hang up')));
    expect(line).toMatchObject({ level: 50, err: { message: 'socket hang up' } });
  });
});
