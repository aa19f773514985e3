import { describe, expect, it } from 'vitest';
import { clientIpOf, clientKeyOf, forwardedAddress } from '../../functions/http/client-ip.ts';

describe('clientIpOf', () => {
  it('uses the socket address and ignores X-Forwarded-For without trusted proxies', () => {
    expect(clientIpOf('::ffff:10.0.0.5', '1.2.3.4', 0)).toBe('10.0.0.5');
  });

  it('takes the entry left of the trusted proxies', () => {
    expect(clientIpOf('10.0.0.1', '6.6.6.6, 1.2.3.4', 1)).toBe('1.2.3.4');
    expect(clientIpOf('10.0.0.1', '6.6.6.6, 1.2.3.4, 10.0.0.2', 2)).toBe('1.2.3.4');
    expect(clientIpOf('10.0.0.1', ['6.6.6.6', '1.2.3.4'], 1)).toBe('1.2.3.4');
  });

  it('falls back to the socket for garbage or missing hops', () => {
    expect(clientIpOf('10.0.0.1', 'not-an-ip', 1)).toBe('10.0.0.1');
    expect(clientIpOf('10.0.0.1', undefined, 1)).toBe('10.0.0.1');
    expect(clientIpOf('10.0.0.1', '2001:db8::1', 1)).toBe('2001:db8::1');
  });

  it('refuses what only looks like an address, and drops a port a proxy appended', () => {
    for (const odd of [
      '::::7',
      '1.2.3.4.5',
      '999.1.1.1',
      '1.2.3.4:x',
      '[1.2.3.4]',
      '2001:db8::1:443:1:2:3:4:5',
      ':::',
      '1.2.3.4:99999',
    ]) {
      expect(forwardedAddress(odd), odd).toBeNull();
      expect(clientIpOf('10.0.0.1', odd, 1), odd).toBe('10.0.0.1');
    }
    expect(forwardedAddress('192.0.2.1:1234')).toBe('192.0.2.1');
    expect(forwardedAddress('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(forwardedAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(forwardedAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('clientKeyOf', () => {
  it('counts an IPv4 client by its address and an IPv6 client by its /64', () => {
    expect(clientKeyOf('192.0.2.1')).toBe('192.0.2.1');
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
