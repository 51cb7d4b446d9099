/*
 * The wiki's icon at /favicon.ico (where MediaWiki's $wgFavicon points and browsers look): a
 * 16×16 32-bit ICO drawn here — a white "Q"-like ring on the skin's link blue — so no file ships
 * with the build and no request for it ends in a 404.
 */

const SIZE = 16;

/** BGRA of one pixel: the ring, its inside, or the corners outside the rounded square. */
function pixel(x: number, y: number): [number, number, number, number] {
  const cx = x + 0.5 - SIZE / 2;
  const cy = y + 0.5 - SIZE / 2;
  const corner = Math.max(Math.abs(cx), Math.abs(cy)) > 7 && Math.hypot(Math.abs(cx) - 5, Math.abs(cy) - 5) > 3;
  if (corner) return [0, 0, 0, 0];
  const r = Math.hypot(cx, cy);
  const ring = r > 3 && r < 5.2;
  const tail = cx > 1.5 && cy > 1.5 && Math.abs(cx - cy) < 1.1 && cx < 6;
  return ring || tail ? [255, 255, 255, 255] : [204, 102, 51, 255];
}

function build(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  // Bitmap rows go bottom-up.
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) pixels.set(pixel(x, SIZE - 1 - y), (y * SIZE + x) * 4);
  }
  const mask = Buffer.alloc(SIZE * 4); // 1-bit AND mask, rows padded to 4 bytes: all 0 (alpha decides)
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8); // the XOR bitmap and the AND mask
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

export const FAVICON_ICO: Buffer = build();
