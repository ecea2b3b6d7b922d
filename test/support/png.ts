// A PNG's pixel size, from its IHDR chunk (which must come first): for the checks that committed
// screenshots are the size the docs say (scripts/screenshots.ts, test/unit/docs/images.test.ts).

export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!png.subarray(0, 8).equals(signature) || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
