import { clientNetwork } from './client-network';

describe('clientNetwork', () => {
  it('should keep an IPv4 address as it is', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
  });

  it('should count an IPv6 address by its /64 when the addresses differ only in the last 64 bits', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('should expand :: wherever it stands, and drop a zone id', () => {
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('2001:db8:0:0:1::')).toBe('2001:db8:0:0::/64');
  });

  it('should treat an IPv4-mapped IPv6 address as its IPv4 client when a dual-stack socket reports one', () => {
    expect(clientNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('::FFFF:c000:201')).toBe('192.0.2.1');
  });

  it('should read an IPv6 address that ends with a dotted quad as IPv6 when it is not IPv4-mapped', () => {
    expect(clientNetwork('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('should keep anything that is not an address as it is', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
  });
});
