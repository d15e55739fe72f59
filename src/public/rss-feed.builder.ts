/**
 * Builds an RSS 2.0 document (https://www.rssboard.org/rss-specification). Every piece of text is
 * escaped as character data (no CDATA, which an answer containing `]]>` would break out of), and
 * characters XML 1.0 does not allow at all are dropped.
 */
export interface RssChannel {
  title: string;
  link: string;
  description: string;
  selfLink: string;
  lastBuildDate: Date;
  items: RssItem[];
}

export interface RssItem {
  title: string;
  link: string;
  description: string;
  guid: string;
  pubDate: Date;
}

// Outside XML 1.0's Char production: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export function escapeXml(value: string): string {
  return value
    .replace(NOT_XML_CHARACTER, '')
    .replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

/** RFC 822 date-time as RSS 2.0 wants it, e.g. `Tue, 03 Jun 2025 09:39:21 GMT`. */
export function rfc822(date: Date): string {
  return date.toUTCString();
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

export function buildRssFeed(channel: RssChannel): string {
  const items = channel.items.map((item) =>
    [
      '    <item>',
      `      ${element('title', item.title)}`,
      `      ${element('link', item.link)}`,
      `      ${element('description', item.description)}`,
      `      <guid isPermaLink="false">${escapeXml(item.guid)}</guid>`,
      `      ${element('pubDate', rfc822(item.pubDate))}`,
      '    </item>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    ${element('title', channel.title)}`,
    `    ${element('link', channel.link)}`,
    `    ${element('description', channel.description)}`,
    `    <atom:link href="${escapeXml(channel.selfLink)}" rel="self" type="application/rss+xml"/>`,
    `    ${element('lastBuildDate', rfc822(channel.lastBuildDate))}`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
