import { describe, expect, it } from '@jest/globals';
import { describeBoundAddress } from '../../src/config/service-address.js';

describe('describeBoundAddress', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0:3000 (every IPv4 interface of this machine)'],
    ['::', '[::]:3000 (every interface of this machine)'],
    ['127.0.0.1', '127.0.0.1:3000 (loopback: this machine only)'],
    ['127.0.0.2', '127.0.0.2:3000 (loopback: this machine only)'],
    ['::1', '[::1]:3000 (loopback: this machine only)'],
    ['::ffff:127.0.0.1', '[::ffff:127.0.0.1]:3000 (loopback: this machine only)'],
    ['192.0.2.7', '192.0.2.7:3000'],
    ['2001:db8::7', '[2001:db8::7]:3000'],
  ])('says what a socket bound to %s reaches', (address, said) => {
    expect(describeBoundAddress({ address, port: 3000 })).toBe(said);
  });
});
