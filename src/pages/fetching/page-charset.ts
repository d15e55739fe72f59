import iconv from 'iconv-lite';

/** The HTML standard's prescan looks at the first 1,024 bytes for a `meta` charset. */
const META_PRESCAN_BYTES = 1024;
const META_CHARSET =
  /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)|<meta\b[^>]*?\bcontent\s*=\s*["'][^"']*?\bcharset\s*=\s*([\w.:-]+)/i;

/** The charset a `<meta>` near the start of an HTML document declares, if any. */
export function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, META_PRESCAN_BYTES).toString('latin1');
  const match = META_CHARSET.exec(head);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * `body` decoded with `charset` (docs/pages.md, "Reading the text"): Node's TextDecoder (the
 * WHATWG Encoding labels), iconv-lite for a charset it lacks, UTF-8 when neither knows it.
 */
export function decodeText(body: Buffer, charset: string | undefined): string {
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      if (iconv.encodingExists(charset)) return iconv.decode(body, charset);
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
