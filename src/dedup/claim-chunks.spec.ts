import { chunked } from './claim-chunks.js';

const limits = (maxItems: number, maxSize: number) => ({ maxItems, maxSize, sizeOf: (item: string) => item.length });

describe('chunked', () => {
  it('keeps a delivery within the limits in one chunk', () => {
    expect(chunked(['a', 'b', 'c'], limits(3, 3))).toEqual([['a', 'b', 'c']]);
  });

  it('cuts at the item limit, in order, the last chunk holding the rest', () => {
    const items = Array.from({ length: 2500 }, (_, i) => `${i % 10}`);
    const chunks = chunked(items, limits(1000, Infinity));
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 500]);
    expect(chunks.flat()).toEqual(items);
  });

  it('cuts before an item that would take a chunk past the size limit', () => {
    expect(chunked(['aa', 'bb', 'c', 'dddd', 'e'], limits(10, 4))).toEqual([['aa', 'bb'], ['c'], ['dddd'], ['e']]);
  });

  it('gives an item larger than the size limit a chunk of its own rather than refusing it', () => {
    expect(chunked(['a', 'huge-item', 'b'], limits(10, 4))).toEqual([['a'], ['huge-item'], ['b']]);
  });

  it('never makes an empty chunk', () => {
    expect(chunked([], limits(1, 1))).toEqual([]);
    expect(chunked(['toolong'], limits(1, 1))).toEqual([['toolong']]);
  });
});
