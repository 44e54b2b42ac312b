import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TcpProxy } from './support/tcp-proxy.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';
import { useServiceProcesses } from './support/use-service-processes.js';

const KEY = 'outage-log-e2e-key';
const auth = { Authorization: `Bearer ${KEY}` };

// The outage is MySQL's: the embedded SQLite file cannot become unreachable.
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('the log of a database outage on %s', (kind) => {
  const processes = useServiceProcesses();
  let database: TestDatabase;
  let proxy: TcpProxy;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const direct = new URL(database.url);
    proxy = await TcpProxy.start(direct.hostname, Number(direct.port || 3306));
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it('says when it starts (error), how many requests it refused every 10 s and when it ends (warn), not one error per request', async () => {
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const service = await processes.spawn({ DATABASE_URL: viaProxy.href, API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '0' });
    const base = await service.listening();
    expect((await fetch(`${base}/v1/pets`, { headers: auth })).status).toBe(200);

    proxy.cut('reset');
    const statuses: number[] = [];
    const outageStarted = Date.now();
    while (Date.now() - outageStarted < 11_000) {
      const create = statuses.length % 2 === 1;
      const response = await fetch(`${base}/v1/pets`, {
        method: create ? 'POST' : 'GET',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: create ? '{"name":"During","categoryId":1}' : undefined,
      });
      await response.arrayBuffer();
      statuses.push(response.status);
      await new Promise((wait) => setTimeout(wait, 50));
    }
    proxy.restore();
    let healed = 0;
    while (healed !== 200) {
      healed = (await fetch(`${base}/v1/pets`, { headers: auth })).status;
      if (healed !== 200) statuses.push(healed);
    }
    await service.waitForOutput(/Database available again/);

    const refused = statuses.filter((status) => status === 503).length;
    expect(refused).toBeGreaterThan(50);
    expect(statuses.filter((status) => status !== 503)).toEqual([]);
    const lines = service.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string; outage?: string; refused?: number; res?: { statusCode: number } });
    // Only the start is an error; each refused request keeps its own line, at info.
    expect(lines.filter((line) => line.level >= 50).map((line) => line.outage)).toEqual(['started']);
    expect(lines.filter((line) => line.res?.statusCode === 503).every((line) => line.level === 30)).toBe(true);
    expect(lines.filter((line) => line.res?.statusCode === 503)).toHaveLength(refused);
    const reports = lines.filter((line) => line.outage === 'ongoing' || line.outage === 'ended');
    expect(reports.map((line) => [line.level, line.outage])).toEqual([
      [40, 'ongoing'],
      [40, 'ended'],
    ]);
    expect(reports[1].refused).toBe(refused);
    expect(reports[0].refused).toBeLessThan(refused);
    expect(reports[1].msg).toMatch(new RegExp(`^Database available again after \\d+\\.\\d s; ${refused} requests were answered 503$`));

    // The metrics still count every one.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const counted = [...metrics.matchAll(/^petstore_http_requests_total\{[^}]*status="503"[^}]*\} (\d+)$/gm)].reduce(
      (sum, [, count]) => sum + Number(count),
      0,
    );
    expect(counted).toBe(refused);
  }, 60_000);
});
