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
