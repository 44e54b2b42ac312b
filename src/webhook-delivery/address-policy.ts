import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a delivery may connect to: public unicast ones, and those in the operator's
 * allowed networks. Checked on the address actually connected to (after DNS, at every attempt), so
 * neither DNS rebinding nor an IP written in another form gets a request to loopback, a private
 * network or a cloud's metadata service (169.254.169.254, fd00:ec2::254). request-filtering-agent
 * does this for http.Agent but allows single addresses only, not the networks an operator names.
 */
export class AddressPolicy {
  private readonly allowed = new BlockList();

  constructor(allowedNetworks: readonly string[]) {
    for (const network of allowedNetworks) {
      const [address, bits] = network.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.allowed.addAddress(address, family);
      else this.allowed.addSubnet(address, Number(bits), family);
    }
  }

  /** Why `address` may not be connected to, or undefined when it may. */
  refusal(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    let parsed = ipaddr.parse(address);
    // ::ffff:127.0.0.1 is 127.0.0.1.
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    const normal = parsed.toString();
    if (this.allowed.check(normal, parsed.kind() === 'ipv6' ? 'ipv6' : 'ipv4')) return undefined;
    const range = parsed.range();
    return range === 'unicast' ? undefined : `${address} is a ${range} address, which webhooks may not reach (WEBHOOK_ALLOWED_NETWORKS)`;
  }

  /** A dns.lookup that answers only addresses the policy allows, for http.request's `lookup`. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter(({ address }) => this.refusal(address) === undefined);
      if (allowed.length === 0) {
        const refusal = this.refusal(addresses[0]?.address ?? '') ?? `${hostname} has no address`;
        return callback(Object.assign(new Error(refusal), { code: 'EADDRNOTALLOWED' }), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      else callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
