/**
 * The load of every benchmark: one operation on one server for a while, with wrk when it is
 * installed (one thread, so the servers keep the CPU) or autocannon, and several servers measured in
 * alternating rounds, medians kept. BENCH_SECONDS (10 per run), BENCH_ROUNDS (3), BENCH_CONNECTIONS
 * (16), BENCH_LOAD (wrk | autocannon).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** How many pets the benchmarks seed; `randomId` scenarios ask for one of them. */
export const SEED = 10_000;
export const WRK = process.env.BENCH_LOAD !== 'autocannon' && hasWrk();

/** A server under load: a name for the figures, and its base URL. */
export interface LoadTarget {
  readonly name: string;
  readonly base: string;
}

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
  errors: number;
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** Appends a random seeded pet's id to the path on every request. */
  randomId?: boolean;
  /** The first seeded id is this past 1 (a sandbox's pets, seeded after live's). */
  idOffset?: number;
  /** Made with this key instead of the run's (a sandbox's). */
  key?: string;
  /** `RANDOM` in it is a random number on every request: a rename that changes its pet each time. */
  body?: string;
}

/** In a scenario's body, what is replaced by a random number on every request. */
const RANDOM = 'RANDOM';

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const randomId = () => 1 + Math.floor(Math.random() * SEED);

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version prints its version and exits 1.
    return (error as { status?: number }).status === 1;
  }
}

export async function load(target: LoadTarget, scenario: Scenario, runKey: string, seconds: number): Promise<Figures> {
  const key = scenario.key ?? runKey;
  return WRK ? loadWithWrk(target, scenario, key, seconds) : loadWithAutocannon(target, scenario, key, seconds);
}

async function loadWithAutocannon(target: LoadTarget, scenario: Scenario, key: string, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: target.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: scenario.method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          path: scenario.randomId ? `${scenario.path}${(scenario.idOffset ?? 0) + randomId()}` : scenario.path,
          body: scenario.body?.replace(RANDOM, String(Math.floor(Math.random() * 1e9))),
        }),
      },
    ],
  });
  return {
    requestsPerSecond: round(result.requests.average, 0),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: round(result.latency.mean),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

let wrkScripts: string | undefined;

/** The Lua expression of a scenario's body for wrk: nil for none, `RANDOM` a random number on every request. */
function bodyExpression(body: string | undefined): string {
  if (body === undefined) return 'nil';
  return body
    .split(RANDOM)
    .map((part) => JSON.stringify(part))
    .join(' .. math.random(1, 1000000000) .. ');
}

/** wrk with one thread; a Lua script sets the request and prints the figures as JSON when done. */
async function loadWithWrk(target: LoadTarget, scenario: Scenario, key: string, seconds: number): Promise<Figures> {
  wrkScripts ??= await mkdtemp(path.join(os.tmpdir(), 'petstore-bench-'));
  const script = path.join(wrkScripts, `${scenario.name.replace(/\W+/g, '-')}.lua`);
  const offset = scenario.idOffset ?? 0;
  const pathExpression = scenario.randomId
    ? `${JSON.stringify(scenario.path)} .. math.random(${offset + 1}, ${offset + SEED})`
    : JSON.stringify(scenario.path);
  await writeFile(
    script,
    [
      `wrk.method = "${scenario.method}"`,
      `wrk.headers["Authorization"] = "Bearer ${key}"`,
      `wrk.headers["Content-Type"] = "application/json"`,
      `request = function() return wrk.format(nil, ${pathExpression}, nil, ${bodyExpression(scenario.body)}) end`,
      'done = function(summary, latency)',
      '  local e = summary.errors',
      '  io.write(string.format(\'\\n{"requests":%d,"duration":%d,"p50":%d,"p99":%d,"mean":%f,"non2xx":%d,"errors":%d}\\n\',',
      '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.mean,',
      '    e.status, e.connect + e.read + e.write + e.timeout))',
      'end',
      '',
    ].join('\n'),
  );
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', script, target.base]);
  const figures = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  return {
    requestsPerSecond: round(figures.requests / (figures.duration / 1e6), 0),
    p50Ms: round(figures.p50 / 1000),
    p99Ms: round(figures.p99 / 1000),
    meanMs: round(figures.mean / 1000),
    non2xx: figures.non2xx,
    errors: figures.errors,
  };
}

/** Each round's figures of each target, in the order the rounds ran (the last call of `alternate`). */
export const lastRounds: Record<string, Figures[]> = {};

/**
 * One scenario on each target: a warm-up, then ROUNDS rounds in alternating order; medians per
 * target. Each round's figures stay in `lastRounds`, to pair targets round by round.
 */
export async function alternate(targets: readonly LoadTarget[], scenario: Scenario, key: string): Promise<Record<string, Figures>> {
  for (const target of targets) await load(target, scenario, key, 2);
  const runs: Record<string, Figures[]> = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of r % 2 ? [...targets].reverse() : targets) runs[target.name].push(await load(target, scenario, key, SECONDS));
  }
  for (const name of Object.keys(lastRounds)) delete lastRounds[name];
  Object.assign(lastRounds, runs);
  return Object.fromEntries(Object.entries(runs).map(([name, figures]) => [name, medians(figures)]));
}

/** One target's rounds as one figure: the median of each measure, the sum of the failures. */
export function medians(rounds: readonly Figures[]): Figures {
  return {
    requestsPerSecond: median(rounds.map((f) => f.requestsPerSecond)),
    p50Ms: median(rounds.map((f) => f.p50Ms)),
    p99Ms: median(rounds.map((f) => f.p99Ms)),
    meanMs: median(rounds.map((f) => f.meanMs)),
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
  };
}
