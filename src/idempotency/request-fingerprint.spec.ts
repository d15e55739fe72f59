import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('requestFingerprint', () => {
  it('should match when the bodies differ only in key order', () => {
    expect(requestFingerprint('POST', '/api/v1/tasks', { a: 1, b: { d: [1, 2], c: null } })).toBe(
      requestFingerprint('post', '/api/v1/tasks', { b: { c: null, d: [1, 2] }, a: 1 }),
    );
  });

  it('should differ when the method, the path, the query or a value differs', () => {
    const base = requestFingerprint('POST', '/api/v1/tasks', { a: 1 });
    expect(requestFingerprint('PUT', '/api/v1/tasks', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/tasks/x', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/tasks?force=true', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/tasks', { a: '1' })).not.toBe(base);
  });

  it('should treat no body as an empty object when the body is missing', () => {
    expect(requestFingerprint('POST', '/x', undefined)).toBe(requestFingerprint('POST', '/x', {}));
  });

  it('should sort keys at every depth when writing canonical JSON', () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: 'é' })).toBe('{"a":"é","b":[{"x":2,"y":1}]}');
  });
});
