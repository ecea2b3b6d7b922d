import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBlobs } from './decode';

describe('readBlobs: a batch\'s Blobs read as one', () => {
  it('gives each Blob its own bytes, empty Blobs and a single Blob included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), async (arrays) => {
        const blobs = arrays.map((a) => new Blob([a as Uint8Array<ArrayBuffer>]));
        const parts = await readBlobs(blobs);
        expect(parts.map((p) => Array.from(p))).toEqual(arrays.map((a) => Array.from(a)));
      }),
    );
  });

  it('reads a Blob made of parts as its bytes', async () => {
    const b = new Blob([new Uint8Array([1, 2]), new Blob([new Uint8Array([3])])]);
    const [p] = await readBlobs([b, new Blob([])]);
    expect(Array.from(p!)).toEqual([1, 2, 3]);
  });
});
