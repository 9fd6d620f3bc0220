import zlib from 'node:zlib';
import sharp from 'sharp';

/** A JPEG photo, `width` × `height`, carrying Exif with a camera and a GPS position. */
export function jpegWithGps(width = 3000, height = 2000): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .withMetadata({
      exif: {
        IFD0: { Make: 'TestCam', Model: 'Doorstep 1', Copyright: 'Courier' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '0/1 7/1 0/1',
        },
      },
    })
    .jpeg()
    .toBuffer();
}

/** A small PNG, as the signature pad draws one. */
export function signaturePng(): Promise<Buffer> {
  return sharp({
    create: { width: 400, height: 150, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
}

/** A form field holding a file, as a browser or an API client sends one. */
export function fileOf(data: Buffer | string, name: string, type: string): File {
  return new File([typeof data === 'string' ? data : new Uint8Array(data)], name, { type });
}

/**
 * A PNG whose header says `width` × `height` pixels of `bitDepth`-bit samples (`colorType` 2: RGB,
 * 6: RGBA) while its pixel data is a few bytes: what is refused from its header alone must be
 * refused as too large, and anything that tried to decode it would find it broken.
 */
export function pngHeaderOnly(
  width: number,
  height: number,
  { bitDepth = 8, colorType = 2 }: { bitDepth?: 8 | 16; colorType?: 2 | 6 } = {},
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An interlaced (Adam7) RGB PNG, `width` × `height`, of one colour: a small file that decodes
 * whole into memory (an interlaced image cannot be read a strip at a time), ~3 bytes a pixel.
 */
export function interlacedPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 60 } } })
    .png({ progressive: true, compressionLevel: 9 })
    .toBuffer();
}
