/**
 * Hostile multipart framing for the upload route (POST /api/dms-file/upload): what hostile-corpus.ts
 * is to JSON bodies. Each case is a Content-Type and the body bytes sent with it; some happen to
 * be valid forms (a body cut just after its closing delimiter still is one).
 */

export interface MultipartCase {
  label: string;
  contentType: string;
  body: Buffer;
}

const BOUNDARY = 'fuzz-boundary-7f3a';
const CRLF = '\r\n';

/** A part: its header lines, then its content. */
function part(headers: readonly (string | Buffer)[], content: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}${CRLF}`),
    ...headers.flatMap((line) => [typeof line === 'string' ? Buffer.from(line, 'latin1') : line, Buffer.from(CRLF)]),
    Buffer.from(CRLF),
    typeof content === 'string' ? Buffer.from(content) : content,
    Buffer.from(CRLF),
  ]);
}

const field = (name: string, value: string) => part([`Content-Disposition: form-data; name="${name}"`], value);
const file = (filename: string | Buffer, content = 'fuzzed bytes') =>
  part(
    [
      Buffer.concat([Buffer.from('Content-Disposition: form-data; name="file"; filename="'), Buffer.from(filename), Buffer.from('"')]),
      'Content-Type: text/plain',
    ],
    content,
  );
const closing = Buffer.from(`--${BOUNDARY}--${CRLF}`);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, closing]);
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A small valid upload form of `crProcessId`: the body every truncation is cut from. */
export function validForm(crProcessId: number): Buffer {
  return form(field('crProcessId', String(crProcessId)), file('fuzz.txt'));
}

/**
 * The corpus for a tenant: the valid form cut at every offset (the closing delimiter missing, a part
 * header or the content broken off), missing and garbled boundaries, endless header lines, bad part
 * headers, and NUL and malformed UTF-8 in field and file names.
 */
export function multipartCorpus(crProcessId: number): MultipartCase[] {
  const valid = validForm(crProcessId);
  const tenant = field('crProcessId', String(crProcessId));
  const cases: MultipartCase[] = [];
  for (let end = 0; end <= valid.length; end++) cases.push({ label: `cut at ${end} of ${valid.length}`, contentType: TYPE, body: valid.subarray(0, end) });
  const add = (label: string, body: Buffer, contentType = TYPE) => cases.push({ label, contentType, body });
  // boundaries
  add('no boundary parameter', valid, 'multipart/form-data');
  add('empty boundary', valid, 'multipart/form-data; boundary=');
  add('boundary of 71 characters', valid, `multipart/form-data; boundary=${'b'.repeat(71)}`);
  add('another boundary than the body uses', valid, 'multipart/form-data; boundary=other');
  add('a quoted boundary that is never closed', valid, 'multipart/form-data; boundary="fuzz-boundary-7f3a');
  add('not multipart', valid, 'application/octet-stream');
  add('mixed, not form-data', valid, `multipart/mixed; boundary=${BOUNDARY}`);
  add('no closing delimiter', Buffer.concat([tenant, file('fuzz.txt')]));
  add('closing delimiter garbled', Buffer.concat([tenant, file('fuzz.txt'), Buffer.from(`--${BOUNDARY}-x${CRLF}`)]));
  add('delimiter without its CRLF', Buffer.from(`--${BOUNDARY}Content-Disposition: form-data; name="file"; filename="a"${CRLF}${CRLF}x${CRLF}--${BOUNDARY}--`));
  add('only the closing delimiter', closing);
  add('empty body', Buffer.alloc(0));
  add('preamble only', Buffer.from('no parts here at all'));
  // endless and broken header lines
  add('an endless header line', Buffer.concat([Buffer.from(`--${BOUNDARY}${CRLF}X-Long: `), Buffer.alloc(200_000, 'a')]));
  add('endless header lines', Buffer.concat([Buffer.from(`--${BOUNDARY}${CRLF}`), Buffer.from(`X-Line: a${CRLF}`.repeat(20_000))]));
  add('a header line without a colon', form(tenant, part(['Content-Disposition form-data name file'], 'x')));
  add('no Content-Disposition', form(tenant, part(['Content-Type: text/plain'], 'x')));
  add('Content-Disposition without a name', form(tenant, part(['Content-Disposition: form-data; filename="a.txt"'], 'x')));
  add('Content-Disposition not form-data', form(tenant, part(['Content-Disposition: attachment; name="file"; filename="a.txt"'], 'x')));
  add('unterminated quoted name', form(tenant, part(['Content-Disposition: form-data; name="file; filename="a.txt'], 'x')));
  add('filename* in an unknown charset', form(tenant, part(['Content-Disposition: form-data; name="file"; filename*=x-unknown\'\'%FF%FE'], 'x')));
  add('filename* with a bad escape', form(tenant, part(['Content-Disposition: form-data; name="file"; filename*=utf-8\'\'%ZZ%'], 'x')));
  add('part header bytes that are not ASCII', form(tenant, part([Buffer.from([0x58, 0x2d, 0xff, 0x3a, 0x20, 0xfe, 0x00])], 'x')));
  add('a Content-Type that is garbage', form(tenant, part(['Content-Disposition: form-data; name="file"; filename="a.txt"', 'Content-Type: ;;;/;'], 'x')));
  add('two files', form(tenant, file('a.txt'), file('b.txt')));
  add('thirty-one parts', form(tenant, ...Array.from({ length: 30 }, (_, i) => field(`f${i}`, 'x'))));
  // names
  add('NUL in the file name', form(tenant, file('a\u0000b.txt')));
  add('NUL in a field name', form(field('crProcess\u0000Id', String(crProcessId)), file('a.txt')));
  add('NUL in a field value', form(field('crProcessId', `${crProcessId}\u0000`), file('a.txt')));
  add('NUL in the description', form(tenant, field('description', 'a\u0000b'), file('a.txt')));
  add('malformed UTF-8 in the file name', form(tenant, file(Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x74]))));
  add('an encoded surrogate in the file name', form(tenant, file(Buffer.from([0x61, 0xed, 0xa0, 0x80]))));
  add(
    'malformed UTF-8 in a field name',
    form(
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="`),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from(`"${CRLF}${CRLF}1${CRLF}`),
      ]),
      file('a.txt'),
    ),
  );
  add('a file name of 300 characters', form(tenant, file('n'.repeat(300))));
  add('a file name that is a path only', form(tenant, file('../../')));
  add('the tenant not a number', form(field('crProcessId', '1e3'), file('a.txt')));
  return cases;
}
