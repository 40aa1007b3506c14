import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip of one deflated entry, written byte by byte so that a test can make what no zip writer
 * would: a zip bomb (a large, uniform `content` deflates about a thousand to one) and an entry whose
 * central directory says `declared` bytes inflated while it inflates to more.
 *
 * @example
 * zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(64 * 1024 * 1024)) // 64 MiB of zeros in about 64 KiB
 */
export function zipOf(name: string, content: Buffer, declared = content.length): Buffer {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const localPart = Buffer.concat([local, nameBytes, data]);
  const centralPart = Buffer.concat([central, nameBytes]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}
