import proxyAddr from 'proxy-addr';

/**
 * TRUST_PROXY as a function, compiled as Express compiles its `trust proxy` setting (with
 * proxy-addr, as Express does): whether the address `hop` hops from the connection (0: its peer)
 * may speak for the client. createApp gives Express this very function, so that X-Forwarded-*
 * and the connection limits trust the same hops.
 */
export function trustedProxies(setting: boolean | number | string): (address: string, hop: number) => boolean {
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting === false ? [] : setting.split(',').map((entry) => entry.trim()));
}
