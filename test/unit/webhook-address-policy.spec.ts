import { describe, expect, it } from '@jest/globals';
import { AddressPolicy } from '../../src/webhook-delivery/address-policy.js';

describe('AddressPolicy', () => {
  const strict = new AddressPolicy([]);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.9', 'private'],
    ['172.16.5.5', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:7f00:1', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(strict.refusal(address)).toContain(range);
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])('allows the public address %s', (address) => {
    expect(strict.refusal(address)).toBeUndefined();
  });

  it('allows what the operator named, and nothing next to it', () => {
    const policy = new AddressPolicy(['127.0.0.0/8', '10.20.0.0/16', 'fd12::/16']);
    expect(policy.refusal('127.9.9.9')).toBeUndefined();
    expect(policy.refusal('::ffff:127.0.0.1')).toBeUndefined();
    expect(policy.refusal('10.20.3.4')).toBeUndefined();
    expect(policy.refusal('fd12::1')).toBeUndefined();
    expect(policy.refusal('10.21.0.1')).toContain('private');
    expect(policy.refusal('169.254.169.254')).toContain('linkLocal');
  });
});
