/** How large one chunk of a webhook request's claim may be. */
export interface ChunkLimits<Item> {
  maxItems: number;
  maxSize: number;
  sizeOf: (item: Item) => number;
}

/**
 * Splits items, in order, into consecutive chunks of at most `maxItems` items and `maxSize`
 * size. An item larger than `maxSize` on its own is a chunk of its own (a body is bounded by
 * WEBHOOK_BODY_LIMIT, so one event always fits a statement).
 */
export function chunked<Item>(items: readonly Item[], limits: ChunkLimits<Item>): Item[][] {
  const chunks: Item[][] = [];
  let chunk: Item[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = limits.sizeOf(item);
    if (chunk.length > 0 && (chunk.length >= limits.maxItems || size + itemSize > limits.maxSize)) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(item);
    size += itemSize;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
