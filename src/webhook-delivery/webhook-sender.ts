import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';

/** At most this much of an answer is read; the rest is cut off (a 1 GiB answer costs 64 KiB). */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** What the delivery log keeps of an answer. */
export const ANSWER_EXCERPT_BYTES = 1024;
/** A connection kept open for the next delivery is closed after this long unused. */
const IDLE_CONNECTION_MS = 5_000;

export interface PostOutcome {
  /** The answer's status; absent when none came (refused, timed out, not allowed). */
  readonly status?: number;
  /** Why no answer came: the address was not allowed, none came in time, or the connection failed. */
  readonly failure?: 'blocked' | 'timeout' | 'unreachable';
  readonly error?: string;
  readonly excerpt?: string;
  readonly durationMs: number;
}

/**
 * Sends deliveries: POSTs `body` to `url` and reads at most MAX_ANSWER_BYTES of the answer, all within
 * `timeoutMs` from the start (a trickling answer is cut off there too). Redirects are not followed: a
 * 3xx is an answer like any other that is not 2xx. Never throws: every failure is an outcome.
 * Connections are kept open between deliveries to the same host (no TLS handshake per delivery):
 * each is checked by the policy's lookup when it is made, and stays connected to that address; the
 * agents are this sender's own, so no connection made under one policy serves another. One instance
 * (a provider of WebhooksModule) serves every attempt of the process.
 */
export class WebhookSender {
  private readonly agents: { 'http:': HttpAgent; 'https:': HttpsAgent };

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
    maxConnections: number,
  ) {
    // Not capped per host below the deliverer's own bound: two endpoints on one host (a receiving
    // service for many customers) must not queue behind each other's slow answers.
    const options = { keepAlive: true, maxSockets: maxConnections, maxFreeSockets: 4, timeout: IDLE_CONNECTION_MS };
    this.agents = { 'http:': new HttpAgent(options), 'https:': new HttpsAgent(options) };
  }

  post(url: URL, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // An address written in the URL is never looked up: check it here.
      const literalRefusal = isIP(host) ? this.policy.refusal(host) : undefined;
      if (literalRefusal) return resolve({ failure: 'blocked', error: literalRefusal, durationMs: 0 });

      let settled = false;
      /** `keep`: the answer was read to its end, and its connection may serve the next delivery. */
      const settle = (outcome: Omit<PostOutcome, 'durationMs'>, keep = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!keep) outgoing.destroy();
        resolve({ ...outcome, durationMs: elapsed() });
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: this.policy.lookup,
        agent: this.agents[url.protocol === 'https:' ? 'https:' : 'http:'],
      });
      const timer = setTimeout(
        () => settle({ failure: 'timeout', error: `no complete answer within ${this.timeoutMs} ms` }),
        this.timeoutMs,
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        settle({ failure: error.code === 'EADDRNOTALLOWED' ? 'blocked' : 'unreachable', error: describe(error) }),
      );
      outgoing.on('response', (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const outcome = () => ({
          status: answer.statusCode,
          excerpt: Buffer.concat(chunks).subarray(0, ANSWER_EXCERPT_BYTES).toString('utf8'),
        });
        answer.on('data', (chunk: Buffer) => {
          if (size < ANSWER_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) settle(outcome());
        });
        answer.on('end', () => settle(outcome(), true));
        answer.on('error', () => settle(outcome()));
      });
      outgoing.end(body);
    });
  }

  /** Closes the connections kept open. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}

function describe(error: NodeJS.ErrnoException): string {
  return (error.code && error.code !== 'EADDRNOTALLOWED' ? `${error.code}: ${error.message}` : error.message).slice(0, 255);
}
