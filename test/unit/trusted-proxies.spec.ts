import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { trustedProxies } from '../../src/http/trusted-proxies.js';

const SETTINGS = [false, true, 0, 1, 2, 'loopback', '10.0.0.0/8, 127.0.0.1', 'uniquelocal,linklocal', '::1'];
const ADDRESSES = ['127.0.0.1', '10.1.2.3', '192.168.1.1', '169.254.0.1', '::1', 'fd00::1', '8.8.8.8'];

describe('trustedProxies', () => {
  it.each(SETTINGS)('trusts the hops Express trusts for TRUST_PROXY=%s', (setting) => {
    // Express's own compilation of the setting, read where Express keeps it (in this test only).
    const expressTrusts = express().set('trust proxy', setting).get('trust proxy fn') as (address: string, hop: number) => boolean;
    const trusts = trustedProxies(setting);
    for (const address of ADDRESSES) {
      for (const hop of [0, 1, 2])
        expect({ address, hop, trusted: trusts(address, hop) }).toEqual({ address, hop, trusted: expressTrusts(address, hop) });
    }
  });
});
