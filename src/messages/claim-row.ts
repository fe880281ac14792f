import type { NormalizedEvent } from '../sources/shared/normalized-event.js';

/** One distinct idempotency key of a claim batch, ready to store. */
export type ClaimRow = Pick<NormalizedEvent, 'key' | 'source' | 'kind' | 'type' | 'sender' | 'userId' | 'tenant' | 'providerTimestamp' | 'fromMe' | 'authenticated'> & {
  /** The raw event as JSON text (see toStorableJson). */
  payload: string;
  /** How many times the key occurs in this batch: every copy after the first is a duplicate. */
  copies: number;
};

/** Keys that this batch inserted; every other key of the batch was already stored. */
export type ClaimOutcome = Set<string>;
