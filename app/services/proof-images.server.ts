import pLimit from 'p-limit';
import sharp, { type Metadata } from 'sharp';
import { FileTooLargeError, UnsupportedFileError } from '~/lib/errors.server';
import { PROOF_IMAGE_MAX_PX } from '~/schemas/proof-of-delivery';

/**
 * Uploaded photos and signatures are decoded and encoded again with sharp (libvips) before
 * anything is stored: the stored file is a fresh image at most PROOF_IMAGE_MAX_PX on its longest
 * side, turned upright by its Exif orientation, with no metadata at all (sharp writes none unless
 * asked), so no camera, time or GPS position leaves with it. Whatever does not decode as one of the
 * accepted formats is refused.
 *
 * What decoding costs is bounded before it starts. A compressed file says little: a 1 MB PNG can
 * hold 10,000 × 10,000 pixels of 16-bit RGBA, most of a gigabyte decoded. So the header is read
 * first (sharp's metadata reads it without decoding a pixel), and a picture over
 * MAX_INPUT_PIXELS, or over MAX_DECODED_BYTES once decoded (width × height × channels × bytes
 * per sample), is refused as too large. What passes is decoded in a queue of DECODES_AT_ONCE per
 * process, so a burst of uploads waits its turn instead of multiplying the memory they take.
 */
const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
export type ImageFormat = keyof typeof CONTENT_TYPES;

/** The most pixels (width × height) a picture may have: more than any phone camera's photo. */
export const MAX_INPUT_MEGAPIXELS = 50;
const MAX_INPUT_PIXELS = MAX_INPUT_MEGAPIXELS * 1_000_000;
/** The most a picture may take once decoded, in MB: a 50-megapixel RGB photo takes 150. */
export const MAX_DECODED_MB = 160;
const MAX_DECODED_BYTES = MAX_DECODED_MB * 1_000_000;
/** Decodes one app process runs at once; the others wait. */
export const DECODES_AT_ONCE = 1;
const decodes = pLimit(DECODES_AT_ONCE);

/** Bytes of one sample of each libvips band format. */
const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

export type CleanImage = {
  data: Buffer;
  contentType: string;
  format: ImageFormat;
  width: number;
  height: number;
};

/** A picture whose header was read and found within the limits, ready to be decoded. */
export type CheckedImage = { bytes: Buffer; format: ImageFormat; notImage: UnsupportedFileError };

type ImageOptions = { field: string; label: string; accept: readonly ImageFormat[] };

function refused(field: string, message: string): UnsupportedFileError {
  return new UnsupportedFileError(message, {
    details: { [field]: [message] },
    code: 'unsupported_image',
  });
}

function tooLarge(field: string, message: string): FileTooLargeError {
  return new FileTooLargeError(message, {
    details: { [field]: [message] },
    code: 'image_too_large',
  });
}

const decodeOptions = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS } as const;

/**
 * Reads the header of the image in `bytes`: an UnsupportedFileError naming `field` when it is not
 * one of `accept`, a FileTooLargeError when it would decode too large. Nothing is decoded.
 */
export async function checkImage(
  bytes: Buffer,
  { field, label, accept }: ImageOptions,
): Promise<CheckedImage> {
  const names = accept.map((f) => (f === 'jpeg' ? 'JPEG' : f === 'png' ? 'PNG' : 'WebP'));
  const kinds = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  const notImage = refused(field, `${label} is not a ${kinds} image`);
  let header: Metadata;
  try {
    // No pixel limit here: the header alone is read, and the limits below say what is wrong.
    header = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw notImage;
  }
  const format = header.format;
  if (!format || !(accept as readonly string[]).includes(format)) throw notImage;
  const { width = 0, height = 0 } = header;
  const decodedBytes =
    width * height * (header.channels ?? 4) * (BYTES_PER_SAMPLE[header.depth ?? ''] ?? 1);
  if (width * height > MAX_INPUT_PIXELS || decodedBytes > MAX_DECODED_BYTES) {
    const size = `${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels, ${Math.ceil(decodedBytes / 1_000_000).toLocaleString('en-US')} MB decoded`;
    throw tooLarge(
      field,
      `${label} is too large: at most ${MAX_INPUT_MEGAPIXELS} megapixels and ${MAX_DECODED_MB} MB decoded (it is ${size})`,
    );
  }
  return { bytes, format: format as ImageFormat, notImage };
}

/** A checked picture decoded and encoded again in its own format, in the process's queue. */
export function decodeImage({ bytes, format, notImage }: CheckedImage): Promise<CleanImage> {
  return decodes(async () => {
    const pipeline = sharp(bytes, decodeOptions).rotate().resize({
      width: PROOF_IMAGE_MAX_PX,
      height: PROOF_IMAGE_MAX_PX,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const encoder =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: 82, mozjpeg: true })
        : format === 'png'
          ? pipeline.png({ compressionLevel: 9 })
          : pipeline.webp({ quality: 80 });
    try {
      const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
      return {
        data,
        contentType: CONTENT_TYPES[format],
        format,
        width: info.width,
        height: info.height,
      };
    } catch {
      throw notImage;
    }
  });
}

/** A stored image as a JPEG of at most `size` pixels a side, for a PDF (pdfkit reads no WebP). */
export function pdfImage(data: Buffer, size: number): Promise<Buffer> {
  return sharp(data)
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}
