import { CHANNEL_CREDENTIALS } from '../notifications/channels/channel-registry';
import { PAGE_CREDENTIALS } from '../pages/page.types';
import {
  keptBody,
  MAX_KEPT_ANSWER_BYTES,
  withoutCredentials,
  withoutEchoedInput,
} from './kept-answer';

describe('keptBody', () => {
  it('should keep the JSON of the kept form when the answer as sent fits', () => {
    const sent = { id: 'a', secret: 'whsec_x' };
    expect(keptBody(sent, { id: 'a', secret: null })).toBe('{"id":"a","secret":null}');
    expect(keptBody(sent, sent)).toBe(JSON.stringify(sent));
  });

  it('should keep nothing when the answer as sent is over 64 kB, even when the kept form fits', () => {
    // Two bytes a character in UTF-8: the limit is on bytes, not characters.
    const sent = { text: 'é'.repeat(MAX_KEPT_ANSWER_BYTES / 2) };
    expect(keptBody(sent, { text: null })).toBeNull();
  });

  it('should keep an answer of exactly 64 kB', () => {
    const padding = MAX_KEPT_ANSWER_BYTES - JSON.stringify({ text: '' }).length;
    expect(keptBody({ text: 'x'.repeat(padding) }, null)).toBe('null');
  });
});

describe('withoutEchoedInput', () => {
  it('should drop the input of every issue when the detail is a 422 list', () => {
    expect(
      withoutEchoedInput({
        detail: [
          { type: 'missing', loc: ['body', 'a'], msg: 'Field required', input: { b: 1 } },
          {
            type: 'string_type',
            loc: ['body', 'c'],
            msg: 'Input should be a valid string',
            input: 2,
          },
        ],
      }),
    ).toEqual({
      detail: [
        { type: 'missing', loc: ['body', 'a'], msg: 'Field required' },
        { type: 'string_type', loc: ['body', 'c'], msg: 'Input should be a valid string' },
      ],
    });
  });

  it('should leave a message detail as it is', () => {
    const body = { detail: 'Active task limit reached (1)' };
    expect(withoutEchoedInput(body)).toBe(body);
  });
});

describe('withoutCredentials', () => {
  it('should null each credential a record holds and leave the rest', () => {
    const page = { url: 'https://a/', headers: { Cookie: 'id=1' } };
    expect(withoutCredentials(page, ['headers'])).toEqual({ url: 'https://a/', headers: null });
    expect(page.headers).toEqual({ Cookie: 'id=1' });
    expect(withoutCredentials({ url: 'https://a/' }, ['headers'])).toEqual({ url: 'https://a/' });
  });

  it.each([
    ['webhook', { type: 'webhook', url: 'u', method: 'POST', headers: { A: 'b' }, secret: 's' }],
    ['ntfy', { type: 'ntfy', url: 'u', token: 'tk_x' }],
    ['telegram', { type: 'telegram', chat_id: '-1', bot_token: '1:x' }],
  ])('should keep no credential of a %s config, as its definition names them', (type, config) => {
    const kept = withoutCredentials(config, CHANNEL_CREDENTIALS.get(type) ?? []);
    expect(kept).toEqual({
      ...config,
      ...(type === 'webhook' ? { headers: null, secret: null } : {}),
      ...(type === 'ntfy' ? { token: null } : {}),
      ...(type === 'telegram' ? { bot_token: null } : {}),
    });
  });

  it("should keep no page's headers", () => {
    expect(withoutCredentials({ url: 'u', headers: { A: 'b' } }, PAGE_CREDENTIALS)).toEqual({
      url: 'u',
      headers: null,
    });
  });
});
