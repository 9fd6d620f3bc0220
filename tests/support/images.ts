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
