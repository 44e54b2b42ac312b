import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * One run of docker-compose.yml (with `files` on top of it, such as docker-compose.cluster.yml)
 * under a project name of its own, reached only through nginx's port on 127.0.0.1.
 */
export class ComposeStack {
  readonly project = `petstore-ct-${process.pid}-${randomBytes(3).toString('hex')}`;
  /** The service's image, tagged for these tests (built again on each run; layers are cached). */
  readonly image = 'petstore:containers-test';
  readonly apiKeys = Array.from({ length: 4 }, () => `ct_${randomBytes(24).toString('hex')}`);
  private envFile = '';

  constructor(
    readonly port: number,
    private readonly files: readonly string[] = [],
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every pet the API lists through nginx, `limit` a page, following the Link headers; a page that is not 200 throws. */
  async allPets(apiKey: string, limit = 100): Promise<{ id: number; name: string }[]> {
    const pets: { id: number; name: string }[] = [];
    for (let url: string | undefined = `${this.base}/v1/pets?limit=${limit}`; url;) {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(30_000) });
      if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}, not 200`);
      pets.push(...((await response.json()) as { id: number; name: string }[]));
      url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return pets;
  }

  /** Writes the stack's secrets to an env file of the run's own: nothing in the repository, nothing in .env. */
  async prepare(variables: Record<string, string>): Promise<void> {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-ct-'));
    this.envFile = join(directory, 'stack.env');
    const lines = {
      MYSQL_PASSWORD: randomBytes(16).toString('hex'),
      API_KEYS: this.apiKeys.join(','),
      PORT: String(this.port),
      PUBLISH_ADDRESS: '127.0.0.1',
      PETSTORE_IMAGE: this.image,
      ...variables,
    };
    await writeFile(
      this.envFile,
      Object.entries(lines)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
      { mode: 0o600 },
    );
  }

  /** `docker compose …` for this project; the environment (NODE_IMAGE, MYSQL_IMAGE, …) passes through. */
  async compose(args: string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<string> {
    const { stdout } = await run(
      'docker',
      [
        'compose',
        '-p',
        this.project,
        '--env-file',
        this.envFile,
        ...['docker-compose.yml', ...this.files].flatMap((file) => ['-f', resolve(file)]),
        ...args,
      ],
      {
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch(async (error: { stderr?: string; message: string }) => {
      const diagnosis = args[0] === 'up' ? await this.diagnosis() : '';
      throw new Error(`docker compose ${args.join(' ')} failed: ${error.stderr?.trim() || error.message}${diagnosis}`);
    });
    return stdout;
  }

  /** What a failed `up` leaves to read: each container's state and health checks, and the api's last log lines. Never throws. */
  private async diagnosis(): Promise<string> {
    const parts: string[] = [];
    const ps = await this.compose(['ps', '--all', '--format', '{{.Name}} {{.State}} {{.Status}}']).catch(() => '');
    parts.push(`containers:\n${ps.trim()}`);
    for (const container of (await this.compose(['ps', '--all', '-q', 'api']).catch(() => '')).split('\n').filter(Boolean)) {
      const health = await docker(['inspect', '--format', '{{json .State.Health}}', container]).catch(() => '');
      const { stdout, stderr } = await run('docker', ['logs', '--tail', '20', container], { maxBuffer: 16 * 1024 * 1024 }).catch(() => ({
        stdout: '',
        stderr: '',
      }));
      parts.push(`api container ${container.slice(0, 12)}: health ${health}\n${stdout}${stderr}`.trim());
    }
    return `\n${parts.join('\n')}`;
  }

  /**
   * A client of the stack's own network (a container that waits until stopped): an address of its
   * own as nginx sees it, for as long as it runs.
   */
  async startClient(): Promise<StackClient> {
    const id = await docker([
      'run',
      '--detach',
      '--rm',
      '--network',
      `${this.project}_default`,
      this.image,
      'node',
      '-e',
      'setInterval(() => {}, 1e9)',
    ]);
    const run = (script: string, timeoutMs = 120_000) => docker(['exec', id, 'node', '--input-type=module', '-e', script], timeoutMs);
    return {
      run,
      statuses: async (url, requests) => {
        const script = `
          const statuses = [];
          for (const { apiKey, forwardedFor } of ${JSON.stringify(requests)}) {
            const headers = { Authorization: 'Bearer ' + apiKey, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) };
            // An answer that does not come within 5 s counts as none (0).
            statuses.push(await fetch(${JSON.stringify(url)}, { headers, signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0));
          }
          console.log(JSON.stringify(statuses));`;
        return JSON.parse(await run(script)) as number[];
      },
      stop: async () => void (await docker(['rm', '--force', id]).catch(() => '')),
    };
  }

  /** The ids of the running containers of one service. */
  async containers(service: string): Promise<string[]> {
    return (await this.compose(['ps', '-q', service])).split('\n').filter(Boolean);
  }

  /** Removes every container, network and volume of the project, and the env file; never throws. */
  async down(): Promise<void> {
    if (!this.envFile) return;
    await this.compose(['down', '-v', '--remove-orphans', '--timeout', '20'], { timeoutMs: 120_000 }).catch((error: Error) =>
      process.stderr.write(`containers: could not take the stack down: ${error.message}\n`),
    );
    await rm(resolve(this.envFile, '..'), { recursive: true, force: true });
  }
}

export interface StackClient {
  /** Runs a Node script (an ES module) in the client; its stdout. */
  run(script: string, timeoutMs?: number): Promise<string>;
  /** GETs `url` (e.g. http://lb:3000/v1/pets) once per entry, in order; each status (0: no answer within 5 s). */
  statuses(url: string, requests: readonly { apiKey: string; forwardedFor?: string }[]): Promise<number[]>;
  stop(): Promise<void>;
}

export async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run('docker', args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** The peak memory of a running container: its main process's high-water mark and its cgroup's (which counts page cache too). */
export async function peakMemory(container: string): Promise<{ processMb: number; cgroupMb: number; oomKilled: boolean }> {
  const status = await docker(['exec', container, 'cat', '/proc/1/status']);
  const processKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  // cgroup v1 names it memory.max_usage_in_bytes, v2 memory.peak (kernel 5.19+).
  const cgroupBytes = Number(
    await docker([
      'exec',
      container,
      'sh',
      '-c',
      'cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.peak',
    ]),
  );
  const oomKilled = (await docker(['inspect', '--format', '{{.State.OOMKilled}}', container])) === 'true';
  return { processMb: Math.round(processKb / 1024), cgroupMb: Math.round(cgroupBytes / 2 ** 20), oomKilled };
}

export interface Outcome {
  status: number;
  /** What a create acknowledged, or the name it tried. */
  name?: string;
  id?: number;
  /** An error answer's code, status and Retry-After. */
  error?: { code?: string; status?: number; retryAfter: string | null };
  ms: number;
}

/** Requests from `workers` loops until stopped; each outcome is kept. A request the client could not complete is status 0. */
export class Traffic {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(workers: number, request: (n: number) => Promise<Omit<Outcome, 'ms'>>) {
    let n = 0;
    this.loops = Array.from({ length: workers }, async () => {
      while (this.running) {
        const started = Date.now();
        const outcome = await request(n++).catch((): Omit<Outcome, 'ms'> => ({ status: 0 }));
        this.outcomes.push({ ...outcome, ms: Date.now() - started });
        // Bounded: a few hundred requests a second at most, for the test's few seconds.
        await new Promise((pause) => setTimeout(pause, 5));
      }
    });
  }

  async stop(): Promise<Outcome[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.outcomes;
  }

  count(predicate: (outcome: Outcome) => boolean): number {
    return this.outcomes.filter(predicate).length;
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Writes a run's figures to .test-logs/NAME.json and prints them after Jest's report. */
export async function reportFigures(name: string, figures: Record<string, unknown>): Promise<void> {
  await mkdir('.test-logs', { recursive: true });
  await writeFile(`.test-logs/${name}.json`, `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`\n${name}: figures of this run\n${JSON.stringify(figures, null, 2)}\n`);
}

/**
 * Deliveries to a receiver in the stack's network over http (Docker's networks are private
 * addresses), retried within about a minute rather than days: the variables for `prepare`.
 */
export const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16',
  WEBHOOK_RETRY_SCHEDULE: '0,1,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3',
};

/**
 * The receiver: it appends `path webhook-id petId` for each delivery to /tmp/received as it arrives,
 * then answers 204 (after 300 ms on /slow, so that deliveries are in flight when a replica is killed).
 */
const RECEIVER = `
  const { createServer } = await import('node:http');
  const { appendFileSync } = await import('node:fs');
  createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    appendFileSync('/tmp/received', request.url + ' ' + request.headers['webhook-id'] + ' ' + JSON.parse(body).data.object.id + '\\n');
    setTimeout(() => response.writeHead(204).end(), request.url === '/slow' ? 300 : 0);
  }).listen(8080);`;

export interface Delivery {
  readonly webhookId: string;
  readonly petId: number;
}

export interface WebhookReceiver {
  /** The container's id: `docker stop` / `docker start` it to take the receiver down and back. */
  readonly container: string;
  /** What arrived on `path` (e.g. /once), in order of arrival. */
  received(path: string): Promise<Delivery[]>;
  /** Waits until every pet of `petIds` has arrived on `path`, or `timeoutMs` passed; answers what arrived there. */
  allArrived(path: string, petIds: readonly number[], timeoutMs: number): Promise<Delivery[]>;
  remove(): Promise<void>;
}

/** A webhook receiver at http://receiver:8080 in the stack's network, reached by the tests only through `docker exec`. */
export async function startWebhookReceiver(stack: ComposeStack): Promise<WebhookReceiver> {
  const network = `${stack.project}_default`;
  const container = await docker([
    'run',
    '--detach',
    '--network',
    network,
    '--network-alias',
    'receiver',
    stack.image,
    'node',
    '--input-type=module',
    '-e',
    RECEIVER,
  ]);
  const received = async (path: string) =>
    (await docker(['exec', container, 'sh', '-c', 'cat /tmp/received 2>/dev/null || true']))
      .split('\n')
      .map((line) => line.split(' '))
      .filter(([at]) => at === path)
      .map(([, webhookId, petId]) => ({ webhookId, petId: Number(petId) }));
  return {
    container,
    received,
    async allArrived(path, petIds, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const deliveries = await received(path);
        const arrived = new Set(deliveries.map(({ petId }) => petId));
        if (petIds.every((id) => arrived.has(id)) || Date.now() > deadline) return deliveries;
        await sleep(1_000);
      }
    },
    remove: async () => void (await docker(['rm', '--force', container]).catch(() => '')),
  };
}

/** Each pet's webhook-ids: one each, duplicates included, when every delivery of an event carries its id. */
export function webhookIdsByPet(deliveries: readonly Delivery[]): Map<number, Set<string>> {
  const byPet = new Map<number, Set<string>>();
  for (const { petId, webhookId } of deliveries) byPet.set(petId, (byPet.get(petId) ?? new Set()).add(webhookId));
  return byPet;
}
