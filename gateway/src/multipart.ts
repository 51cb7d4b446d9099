/*
 * multipart/form-data as PHP reads it (RFC 7578 and RFC 2046 tolerance), for busboy, which reads
 * only the strict form: Python's standard `email` package (pywikibot's uploads) writes LF line
 * ends, a quoted boundary, and per-part MIME-Version headers; other clients put a blank line or
 * a preamble before the first boundary. A body whose delimiter lines end in LF is rewritten with
 * CRLF delimiter and header lines; each part's content bytes are kept exactly.
 */

/** The boundary parameter of a multipart Content-Type (quoted or not), or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]+))/i.exec(contentType);
  const b = m ? (m[1]?.replace(/\\(.)/g, '$1') ?? m[2]) : undefined;
  return b && b.length <= 200 ? b : undefined;
}

/**
 * The body with every delimiter and header line ended by CRLF (what busboy expects). A body
 * already so written is returned as it is.
 */
export function canonicalMultipart(body: Buffer, boundary: string): Buffer {
  const dash = Buffer.from(`--${boundary}`, 'latin1');
  // Delimiters: at the start of the body or of a line.
  const starts: number[] = [];
  for (let i = body.indexOf(dash); i >= 0; i = body.indexOf(dash, i + dash.length)) {
    if (i === 0 || body[i - 1] === 0x0a) starts.push(i);
  }
  if (starts.length === 0) return body;
  const strict = starts.every((i) => i === 0 || (i >= 2 && body[i - 2] === 0x0d)) && !hasBareLfDelimiterLines(body, starts, dash.length);
  if (strict) return body;
  const out: Buffer[] = [];
  for (let n = 0; n < starts.length; n++) {
    const at = starts[n]! + dash.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) {
      out.push(dash, Buffer.from('--\r\n'));
      break;
    }
    const lineEnd = body.indexOf(0x0a, at);
    if (lineEnd < 0 || n + 1 >= starts.length) break; // cut short: what came before stands
    // The part: header lines up to the first empty line, then the content up to the line break before the next delimiter.
    const next = starts[n + 1]!;
    const contentEnd = next - (next >= 2 && body[next - 2] === 0x0d ? 2 : 1);
    const headerEnd = emptyLine(body, lineEnd + 1, contentEnd);
    if (!headerEnd) continue; // no header block: no name, so nothing PHP would set
    const headers = body
      .subarray(lineEnd + 1, headerEnd.start)
      .toString('latin1')
      .split(/\r?\n/);
    out.push(dash, Buffer.from(`\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'), body.subarray(headerEnd.end, Math.max(headerEnd.end, contentEnd)), Buffer.from('\r\n'));
  }
  return Buffer.concat(out);
}

/** The first empty line at or after `from` (before `limit`): where it starts, and where what follows it begins. */
function emptyLine(body: Buffer, from: number, limit: number): { start: number; end: number } | undefined {
  if (body[from] === 0x0a) return { start: from, end: from + 1 };
  if (body[from] === 0x0d && body[from + 1] === 0x0a) return { start: from, end: from + 2 };
  for (let i = body.indexOf(0x0a, from); i >= 0 && i < limit; i = body.indexOf(0x0a, i + 1)) {
    if (body[i + 1] === 0x0a) return { start: i, end: i + 2 };
    if (body[i + 1] === 0x0d && body[i + 2] === 0x0a) return { start: i - (body[i - 1] === 0x0d ? 1 : 0), end: i + 3 };
  }
  return undefined;
}

/** Whether some delimiter line ends in a bare LF (its line break before it may still be CRLF). */
function hasBareLfDelimiterLines(body: Buffer, starts: number[], dashLength: number): boolean {
  for (const s of starts) {
    const lineEnd = body.indexOf(0x0a, s + dashLength);
    if (lineEnd > 0 && body[lineEnd - 1] !== 0x0d) return true;
  }
  return false;
}
