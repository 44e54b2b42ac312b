import { describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { bootstrapKeyId } from '../../src/auth/api-key.service.js';
import { freePort } from './support/free-port.js';
import { mysqlServerUrl } from './support/global-setup.js';
import { useServiceProcesses } from './support/use-service-processes.js';

const SECRET_KEY = 'lifecycle-secret-key-that-must-never-be-logged';

describe('the service as a process', () => {
  const processes = useServiceProcesses();
  const start = async (env: Record<string, string> = {}) => {
    const service = await processes.spawn({ API_KEYS: SECRET_KEY, ...env });
    return { service, base: await service.listening() };
  };
  const auth = { Authorization: `Bearer ${SECRET_KEY}` };
  /** With LOG_LEVEL=warn: not even the start-up line, which is information, so the port is chosen here. */
  const startLoggingWarnings = async () => {
    const port = await freePort();
    const service = await processes.spawn({ PORT: String(port), API_KEYS: SECRET_KEY, LOG_LEVEL: 'warn' });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15_000;
    while ((await fetch(`${base}/health/live`).catch(() => undefined))?.status !== 200) {
      if (Date.now() > deadline) throw new Error(`the service did not start:\n${service.stderr}`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
    return { service, base };
  };
  const jsonLines = (output: string) =>
    output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);

  describe('logs', () => {
    it('prints one start-up line, then one JSON line per request, and never a key', async () => {
      const { service, base } = await start();
      await fetch(`${base}/v1/pets`, { headers: { ...auth, 'X-Request-Id': 'trace-me-1' } });
      await fetch(`${base}/v1/pets/42`, { headers: auth });
      await fetch(`${base}/v1/pets`, { headers: { Authorization: 'Bearer a-wrong-key-also-secret' } });
      await fetch(`${base}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Logged","categoryId":1}',
      });
      await service.waitForOutput(/POST \/v1\/pets 201/);

      const lines = jsonLines(service.stdout);
      expect(lines[0]).toMatchObject({
        level: 30,
        msg: expect.stringMatching(
          /^Listening on 127\.0\.0\.1:\d+ \(loopback: this machine only\) with SQLite file data\/petstore\.sqlite; on this machine at http:\/\/127\.0\.0\.1:\d+\/v1; docs at http:\/\/127\.0\.0\.1:\d+\/v1\/docs$/,
        ),
      });
      const requests = lines.slice(1);
      expect(requests.map((line) => [line.req.method, line.route, line.res.statusCode])).toEqual([
        ['GET', '/v1/pets', 200],
        ['GET', '/v1/pets/:petId', 404],
        ['GET', '/v1/pets', 401],
        ['POST', '/v1/pets', 201],
      ]);
      expect(requests[0].reqId).toBe('trace-me-1');
      for (const line of requests) {
        expect(line).toMatchObject({ reqId: expect.any(String), responseTime: expect.any(Number), req: { url: expect.any(String) } });
      }
      expect(service.stdout + service.stderr).not.toContain(SECRET_KEY);
      expect(service.stdout + service.stderr).not.toContain('a-wrong-key-also-secret');
      expect(service.stdout).not.toMatch(/authorization/i);
    });

    it('logs only warnings and worse with LOG_LEVEL=warn', async () => {
      const { service, base } = await startLoggingWarnings();
      expect((await fetch(`${base}/v1/pets`, { headers: auth })).status).toBe(200);
      await new Promise((wait) => setTimeout(wait, 300));
      expect(service.stdout).toBe('');
    });

    it('warns of each call of the deprecated getPet with the key id, and counts those calls by key', async () => {
      const { service, base } = await startLoggingWarnings();
      expect((await fetch(`${base}/v1/pets`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/v1/pets/7`, { headers: auth })).status).toBe(404);
      expect((await fetch(`${base}/v1/pets/8`, { headers: auth })).status).toBe(404);
      await service.waitForOutput(/GET \/v1\/pets\/8 404/);

      const keyId = bootstrapKeyId(SECRET_KEY);
      expect(jsonLines(service.stdout).map((line) => [line.level, line.route, line.keyId, line.deprecated])).toEqual([
        [40, '/v1/pets/:petId', keyId, true],
        [40, '/v1/pets/:petId', keyId, true],
      ]);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain(`petstore_deprecated_requests_total{route="/v1/pets/:petId",key_id="${keyId}"} 2`);
      expect(metrics).not.toMatch(/petstore_deprecated_requests_total\{route="\/v1\/pets"/);
    });

    it('prints readable lines only when asked, with LOG_PRETTY=true', async () => {
      const { service, base } = await start({ LOG_PRETTY: 'true' });
      await fetch(`${base}/v1/pets`, { headers: auth });
      const [line] = await service.waitForOutput(/^.*GET \/v1\/pets 200.*$/m);
      expect(() => JSON.parse(line)).toThrow();
      expect(line).toMatch(/INFO/);
    });
  });

  describe('stopping', () => {
    /** A POST whose body arrives in two parts, `pause` apart: in flight for that long. */
    const slowCreate = (base: string, pause: Promise<void>) =>
      new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const body = '{"name":"In flight","categoryId":1}';
        const req = httpRequest(`${base}/v1/pets`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body: text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        void pause.then(() => req.end(body.slice(10)));
      });

    it.each(['SIGTERM', 'SIGINT'] as const)('on %s, answers the request in flight, refuses new ones, and exits 0', async (signal) => {
      const { service, base } = await start();
      let finish!: () => void;
      const inFlight = slowCreate(base, new Promise((done) => (finish = done)));
      await new Promise((wait) => setTimeout(wait, 300));

      service.child.kill(signal);
      await service.waitForOutput(new RegExp(`${signal}: finishing the requests in flight`));
      await expect(fetch(`${base}/health/live`)).rejects.toThrow();
      finish();

      const answer = await inFlight;
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ name: 'In flight' });
      expect(await service.exitCode(10_000)).toBe(0);
      expect(service.stdout).toMatch(new RegExp(`"msg":"Stopped \\d+ ms after ${signal}"`));
    });

    it('gives a request that never finishes 10 s, then stops anyway with exit code 0', async () => {
      const { service, base } = await start();
      const stuck = slowCreate(base, new Promise(() => undefined)).catch((error: Error) => error);
      await new Promise((wait) => setTimeout(wait, 300));
      const stopping = Date.now();
      service.child.kill('SIGTERM');
      expect(await service.exitCode(15_000)).toBe(0);
      const took = Date.now() - stopping;
      expect(took).toBeGreaterThanOrEqual(9_500);
      expect(took).toBeLessThan(13_000);
      // Its connection was closed under it.
      expect(await stuck).toMatchObject({ code: 'ECONNRESET' });
    }, 30_000);
  });

  describe('starting without a usable database', () => {
    // The suite's MySQL server (the machine's, or a container's with TEST_DATABASE=container).
    const server = new URL(mysqlServerUrl());
    const serverAt = `${server.hostname}:${server.port || 3306}`;
    it.each([
      [
        'nothing listens',
        'mysql://petstore:hunter2@127.0.0.1:1/petstore',
        /the database at 127\.0\.0\.1:1 cannot be reached \(connect ECONNREFUSED/,
      ],
      [
        'the credentials are wrong',
        `mysql://nobody:hunter2@${serverAt}/petstore`,
        new RegExp(`the database at ${serverAt.replaceAll('.', '\\.')} refused: Access denied for user 'nobody'`),
      ],
    ])('stops when %s, within 15 s, with one clear line', async (_, url, message) => {
      const started = Date.now();
      const service = await processes.spawn({ DATABASE_URL: url });
      expect(await service.exitCode(20_000)).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(service.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^petstore: cannot start: /)]);
      expect(service.stderr).toMatch(message);
      expect(service.stdout).toBe('');
      expect(service.stderr).not.toContain('hunter2');
    });
  });
});
