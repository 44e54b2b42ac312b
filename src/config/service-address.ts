import type { AppConfig } from './app-config.js';

/**
 * The host a client on this machine reaches a server listening on `host` at: a wildcard address
 * (every interface) at 127.0.0.1 (not localhost, which many clients try as ::1 first, and which
 * linters of OpenAPI documents flag as a placeholder), an IPv6 address in brackets, anything else
 * as it is.
 */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** This server's own base URL (ending in /v1), on `port` (the configured one unless told the bound one). */
export function ownBaseUrl(config: Pick<AppConfig, 'host' | 'port'>, port = config.port): string {
  return `http://${reachableHost(config.host)}:${port}/v1`;
}

/** Where clients reach the API (ending in /v1): PUBLIC_BASE_URL when set, else this server's own address. */
export function apiBaseUrl(config: Pick<AppConfig, 'host' | 'port' | 'publicBaseUrl'>, port = config.port): string {
  return config.publicBaseUrl ?? ownBaseUrl(config, port);
}

/**
 * What a listening socket is bound to, as the start-up line says it: address and port, and who can
 * reach a wildcard or loopback address. The address is the one bound (HOST=localhost may be ::1).
 */
export function describeBoundAddress({ address, port }: { readonly address: string; readonly port: number }): string {
  const bound = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  if (address === '0.0.0.0') return `${bound} (every IPv4 interface of this machine)`;
  if (address === '::') return `${bound} (every interface of this machine)`;
  if (/^(127\.|::ffff:127\.)/.test(address) || address === '::1') return `${bound} (loopback: this machine only)`;
  return bound;
}
