import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { buildRssFeed, escapeXml, rfc822 } from './rss-feed.builder';

describe('escapeXml', () => {
  it('should escape the five XML special characters when they appear in text', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
  });

  it('should escape "]]>" so it can never end a section early', () => {
    expect(escapeXml('x ]]> y')).toBe('x ]]&gt; y');
  });

  it('should drop characters XML 1.0 forbids when they are control characters or lone surrogates', () => {
    expect(escapeXml('a\u0000b\u0001c\u0008d\u000be\ufffff\ud800g')).toBe('abcdefg');
  });

  it('should keep tabs, newlines and characters outside the BMP when they are valid', () => {
    expect(escapeXml('a\tb\nc\rd 😀')).toBe('a\tb\nc\rd 😀');
  });
});

describe('rfc822', () => {
  it('should format dates as RSS 2.0 wants them when given any instant', () => {
    expect(rfc822(new Date('2025-06-03T09:39:21Z'))).toBe('Tue, 03 Jun 2025 09:39:21 GMT');
  });
});

describe('buildRssFeed', () => {
  it('should produce a well-formed document that parses back to the same text when fed hostile input', () => {
    const hostile = '</title><script>alert(1)</script> ]]> & <![CDATA[x]]>';
    const xml = buildRssFeed({
      title: hostile,
      link: 'https://example.com/a?b=1&c=2',
      description: hostile,
      selfLink: 'https://example.com/tasks/1/rss?x="y"',
      lastBuildDate: new Date(0),
      items: [
        {
          title: hostile,
          link: 'https://example.com/',
          description: hostile,
          guid: 'g-1',
          pubDate: new Date(0),
        },
      ],
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as {
      rss: { channel: { title: string; link: string; item: { description: string } } };
    };
    expect(parsed.rss.channel.title).toBe(hostile);
    expect(parsed.rss.channel.link).toBe('https://example.com/a?b=1&c=2');
    expect(parsed.rss.channel.item.description).toBe(hostile);
  });
});
