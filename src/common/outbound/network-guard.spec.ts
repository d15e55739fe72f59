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
