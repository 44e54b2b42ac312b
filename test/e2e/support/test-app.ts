import { afterAll, beforeAll, expect } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { loadAppConfig } from '../../../src/config/app-config.js';
import type { Clock } from '../../../src/config/clock.js';
import { createApp } from '../../../src/create-app.js';
import { E2E_LOG_FILE } from './e2e-log.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-database.js';

export const TEST_API_KEY = 'e2e-bootstrap-key';
export const AUTH = { Authorization: `Bearer ${TEST_API_KEY}` } as const;

/**
 * The real service on a test database, configured as an operator would, through the environment.
 * It logs errors only, and to E2E_LOG_FILE: the 5xx the tests provoke on purpose (and their stack
 * traces) would drown a real failure in the report. Look there when a test fails.
 */
export async function startApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<NestExpressApplication> {
  const config = loadAppConfig({ DATABASE_URL: database.url, API_KEYS: TEST_API_KEY, LOG_LEVEL: 'error', LOG_FILE: E2E_LOG_FILE, ...env });
  const app = await createApp(config, options);
  await app.listen(0, '127.0.0.1');
  return app;
}

export interface AppContext {
  readonly app: NestExpressApplication;
  readonly database: TestDatabase;
  /** supertest against the running service. */
  http(): ReturnType<typeof request>;
}

/** A fresh database (made by `makeDatabase`) and service for the enclosing describe block, torn down after it. */
export function useApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  makeDatabase: () => Promise<TestDatabase> = () => createTestDatabase(kind),
): AppContext {
  const context = {} as { app: NestExpressApplication; database: TestDatabase };
  beforeAll(async () => {
    context.database = await makeDatabase();
    context.app = await startApp(context.database, env);
  });
  afterAll(async () => {
    await context.app?.close();
    await context.database?.drop();
  });
  return {
    get app() {
      return context.app;
    },
    get database() {
      return context.database;
    },
    http: () => request(context.app.getHttpServer()),
  };
}

/**
 * Every error is `{code, message, status, requestId}` as JSON, with status equal to the HTTP status
 * and requestId to the X-Request-Id header.
 */
export function expectError(response: request.Response, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { code, message: expect.any(String), status, requestId: response.headers['x-request-id'] },
  });
  expect(response.headers['x-request-id']).toEqual(expect.any(String));
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}
