/**
 * Documents made in the test, never fixtures (issue: "generated documents only"): a PDF with a text
 * layer (pdf-lib, the DejaVu font for every Turkish letter), the same page rendered into a PNG
 * (poppler's pdftoppm) and into an image-only PDF, and the hostile ones: a malformed PDF, a PDF of
 * many pages, a real PNG of huge dimensions and a decompression bomb (a PDF whose page shows one
 * image that a few hundred kilobytes unpack to hundreds of megabytes).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, createDeflate } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { DOCUMENT_FONT } from './text-tools.ts';

const run = promisify(execFile);

/** A one-page PDF whose text layer holds `lines`, large enough to be read back by OCR once rendered. */
export async function textPdf(lines: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(await readFile(DOCUMENT_FONT), { subset: true });
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 28, size: 16, font }));
  return pdf.save();
}

/** The first page of `pdf` rendered into a greyscale PNG at `dpi`. */
export async function renderedPng(pdf: Uint8Array, dpi = 200): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'doc-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', join(dir, 'in.pdf'), join(dir, 'out')]);
    return await readFile(join(dir, 'out.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF of `pages` pages, each the PNG drawn over the whole page and no text layer: a scan. */
export async function imagePdf(png: Uint8Array, pages = 1): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  for (let i = 0; i < pages; i++) pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return pdf.save();
}

/** A PDF of `pages` empty pages. */
export async function manyPagesPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([200, 200]);
  return pdf.save({ useObjectStreams: true });
}

/** Bytes that start like a PDF and are none. */
export function malformedPdf(): Uint8Array {
  return new TextEncoder().encode(
    '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\nstream\n\u0000\u0001garbage\nendstream\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
}

/** A white 1-bit image of width × height, deflated row by row; each row after a 0 (PNG's "no filter") when `filtered`. */
async function whiteRows(width: number, height: number, filtered: boolean): Promise<Buffer> {
  const row = Buffer.alloc((filtered ? 1 : 0) + Math.ceil(width / 8), 0xff);
  if (filtered) row[0] = 0;
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A valid white 1-bit greyscale PNG of width × height pixels. */
export async function hugePng(width: number, height: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // 1 bit, greyscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', await whiteRows(width, height, true)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that shows one image of side × side 1-bit pixels, Flate-compressed: a decompression bomb. */
export async function bombPdf(side: number): Promise<Buffer> {
  const image = await whiteRows(side, side, false);
  const content = Buffer.from('q 595 0 0 842 0 0 cm /Im1 Do Q');
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Length ${image.length} >>\nstream\n`,
      ),
      image,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    at += object.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
