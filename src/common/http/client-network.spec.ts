import { clientNetwork } from './client-network';

describe('clientNetwork', () => {
  it('should keep an IPv4 address as it is, mapped into IPv6 or not', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('should count the addresses of one IPv6 /64 as one client', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  });

  it('should say unknown when there is no usable address', () => {
    expect(clientNetwork(undefined)).toBe('unknown');
    expect(clientNetwork('not an address')).toBe('unknown');
  });
});
