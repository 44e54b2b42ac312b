import { describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

describe.each(DATABASE_KINDS)('health and metrics on %s', (kind) => {
  const ctx = useApp(kind);

  it('answers liveness and readiness without a key, outside /v1', async () => {
    const live = await ctx.http().get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body.status).toBe('ok');
    const ready = await ctx.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    expectError(await ctx.http().get('/v1/health/ready'), 401, 'API_KEY_MISSING');
  });

  it('keeps health and metrics out of the API document', async () => {
    const paths = Object.keys((await ctx.http().get('/v1/openapi.json')).body.paths);
    expect(paths.filter((path) => /health|metrics/.test(path))).toEqual([]);
  });

  it('counts requests by route, status and environment, with their durations, in Prometheus text', async () => {
    await ctx.http().get('/v1/pets').set(AUTH);
    await ctx.http().get('/v1/pets/987654321').set(AUTH);
    await ctx.http().get('/v1/nowhere').set(AUTH);
    const response = await ctx.http().get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toMatch(
      /^petstore_http_requests_total\{method="GET",route="\/v1\/pets",status="200",environment="live"\} [1-9]/m,
    );
    expect(response.text).toMatch(
      /^petstore_http_requests_total\{method="GET",route="\/v1\/pets\/:petId",status="404",environment="live"\} 1$/m,
    );
    expect(response.text).toMatch(/^petstore_http_requests_total\{method="GET",route="unmatched",status="404",environment="live"\} 1$/m);
    expect(response.text).toMatch(
      /^petstore_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/v1\/pets",status="200",environment="live"\} [1-9]/m,
    );
    expect(response.text).toMatch(/^process_resident_memory_bytes \d+/m);
    if (kind === 'mysql') {
      expect(response.text).toMatch(/^petstore_db_pool_connections\{state="limit"\} 10$/m);
      expect(response.text).toMatch(/^petstore_db_pool_connections\{state="open"\} [1-9]/m);
      expect(response.text).toMatch(/^petstore_db_pool_waiting_requests 0$/m);
    }
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  const ctx = useApp('sqlite', { METRICS_TOKEN: token });

  it('needs the token, not an API key', async () => {
    expectError(await ctx.http().get('/metrics'), 401, 'API_KEY_MISSING');
    expectError(await ctx.http().get('/metrics').set(AUTH), 401, 'API_KEY_INVALID');
    expectError(await ctx.http().get('/metrics').set('Authorization', 'Bearer metrics-token-wrong-000'), 401, 'API_KEY_INVALID');
    const response = await ctx.http().get('/metrics').set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.text).toContain('petstore_http_requests_total');
  });

  it('leaves health open', async () => {
    expect((await ctx.http().get('/health/ready')).status).toBe(200);
  });
});
