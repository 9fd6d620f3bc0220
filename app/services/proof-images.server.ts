import sharp from 'sharp';
import { ApiError } from '~/lib/api.server';
import { PROOF_IMAGE_MAX_PX } from '~/schemas/proof-of-delivery';

/**
 * Uploaded photos and signatures are decoded and encoded again with sharp (libvips) before
 * anything is stored: the stored file is a fresh image at most PROOF_IMAGE_MAX_PX on its longest
 * side, turned upright by its Exif orientation, with no metadata at all (sharp writes none unless
 * asked), so no camera, time or GPS position leaves with it. Whatever does not decode as one of the
 * accepted formats is refused.
 */
const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
export type ImageFormat = keyof typeof CONTENT_TYPES;

/** Larger than any phone camera's photo; past it, decoding alone would take too much memory. */
const MAX_INPUT_PIXELS = 120_000_000;

export type CleanImage = {
  data: Buffer;
  contentType: string;
  format: ImageFormat;
  width: number;
  height: number;
};

function refused(field: string, message: string): ApiError {
  return new ApiError(415, message, { [field]: [message] }, { code: 'unsupported_image' });
}

/**
 * The image in `bytes`, re-encoded in its own format (one of `accept`); a 415 ApiError naming
 * `field` when it is not such an image.
 */
export async function cleanImage(
  bytes: Buffer,
  { field, label, accept }: { field: string; label: string; accept: readonly ImageFormat[] },
): Promise<CleanImage> {
  const names = accept.map((f) => (f === 'jpeg' ? 'JPEG' : f === 'png' ? 'PNG' : 'WebP'));
  const kinds = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  const notImage = refused(field, `${label} is not a ${kinds} image`);
  const options = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS } as const;
  let format: string | undefined;
  try {
    format = (await sharp(bytes, options).metadata()).format;
  } catch {
    throw notImage;
  }
  if (!format || !(accept as readonly string[]).includes(format)) throw notImage;
  const pipeline = sharp(bytes, options).rotate().resize({
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
      contentType: CONTENT_TYPES[format as ImageFormat],
      format: format as ImageFormat,
      width: info.width,
      height: info.height,
    };
  } catch {
    throw notImage;
  }
}

/** A stored image as a JPEG of at most `size` pixels a side, for a PDF (pdfkit reads no WebP). */
export function pdfImage(data: Buffer, size: number): Promise<Buffer> {
  return sharp(data)
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}
