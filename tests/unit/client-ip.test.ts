import { describe, expect, it } from 'vitest';
import { clientIpOf } from '../../functions/http/client-ip.ts';

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
});
