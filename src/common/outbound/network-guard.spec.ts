import { isBlockedAddress } from './network-guard';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '192.168.1.10',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::5',
    '[::1]',
  ])('should refuse %s when it is loopback, private, link-local or unspecified', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '::ffff:127.0.0.1',
    '::FFFF:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '0000:0000:0000:0000:0000:ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '::127.0.0.1',
    '[::ffff:7f00:1]',
  ])('should refuse %s when it carries a private IPv4 address', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  // IPv6 forms that embed or translate to an IPv4 address.
  it.each([
    ['IPv4-translated', '::ffff:0:7f00:1'],
    ['IPv4-translated', '[::ffff:0:7f00:1]'],
    ['IPv4-translated', '::ffff:0:a9fe:a9fe'],
    ['IPv4-compatible', '::7f00:1'],
    ['IPv4-compatible', '[::7f00:1]'],
    ['IPv4-compatible', '::c0a8:10a'],
    ['NAT64', '64:ff9b::7f00:1'],
    ['NAT64', '64:ff9b::10.0.0.1'],
    ['NAT64', '64:ff9b::a9fe:a9fe'],
    ['local-use NAT64', '64:ff9b:1::a9fe:a9fe'],
    ['local-use NAT64', '[64:ff9b:1::a9fe:a9fe]'],
    ['local-use NAT64', '64:ff9b:1:abcd::7f00:1'],
    ['local-use NAT64', '64:ff9b:1::192.168.0.1'],
    ['6to4', '2002:7f00:1::'],
    ['6to4', '[2002:7f00:1::]'],
    ['6to4', '2002:a9fe:a9fe::1'],
    ['6to4', '2002:a00:1:1::1'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 (stored inverted: 80ff:fffe).
    ['Teredo (client)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    // Teredo: client 169.254.169.254 (inverted: 5601:5601).
    ['Teredo (client)', '2001::5601:5601'],
    // Teredo: server 10.0.0.1, client 8.8.8.8 (inverted: f7f7:f7f7).
    ['Teredo (server)', '2001:0:a00:1::f7f7:f7f7'],
  ])(
    'should refuse %s %s when the IPv4 address it embeds is private, loopback or link-local',
    (_form, address) => {
      expect(isBlockedAddress(address)).toBe(true);
    },
  );

  it.each([
    ['IPv4-translated', '::ffff:0:808:808'],
    ['NAT64', '64:ff9b::808:808'],
    ['NAT64', '64:ff9b::8.8.8.8'],
    ['local-use NAT64', '64:ff9b:1::808:808'],
    ['6to4', '2002:808:808::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ])('should allow %s %s when the IPv4 address it embeds is public', (_form, address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'should allow %s when it is a public address',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it('should refuse anything that is not an IP address', () => {
    expect(isBlockedAddress('localhost')).toBe(true);
    expect(isBlockedAddress('')).toBe(true);
  });
});
