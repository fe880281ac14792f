import { Injectable, Logger } from '@nestjs/common';
import { SignatureError } from '../../../src/common/domain-errors.js';
import { buildKey } from '../../../src/sources/shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../../../src/sources/shared/normalized-event.js';
import { arrayOf, isJsonObject, readString, type JsonObject } from '../../../src/sources/shared/payload-values.js';
import { checkSharedSecret } from '../../../src/sources/shared/signatures.js';
import { NO_TARGET, type SourceDescriptor } from '../../../src/sources/source-descriptor.js';
import type { SourceName } from '../../../src/sources/source-registry.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../../../src/sources/webhook-source.js';
import type { WebhookRequest } from '../../../src/sources/webhook-request.js';

/** The fake source's one credential, sent as is in X-Fake-Key. */
export const FAKE_KEY = 'fake-source-key-that-must-never-be-logged';

// A source registered at run time is outside the compile-time union of the shipped names.
const FAKE = 'fake' as SourceName;

/**
 * A source that exists only in this test: `{ "fakeEvents": [{ "id", "from" }] }` bodies, the key
 * in X-Fake-Key. After verifying, it logs the request's headers, as careless code might: the
 * registry's redaction must censor its credential header in that line.
 */
@Injectable()
export class FakeSource extends CredentialedSource {
  private readonly logger = new Logger('FakeSource');
  readonly name = FAKE;
  readonly detectedAs = FAKE;
  readonly credentialVariable = 'the fake source test’s FAKE_KEY';
  protected readonly credentials = [FAKE_KEY];

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-fake-key', label: 'X-Fake-Key' }];
  }

  protected check(request: WebhookRequest): Verification {
    const failure = checkSharedSecret(request.header('x-fake-key'), this.credentials);
    if (failure) throw new SignatureError('X-Fake-Key', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject, _verification: Verification, request: WebhookRequest): NormalizedEvent[] {
    this.logger.log({ msg: 'fake request verified', headers: { 'x-fake-key': request.header('x-fake-key'), 'content-type': request.header('content-type') } });
    return arrayOf(body.fakeEvents).filter(isJsonObject).flatMap((item) => {
      const id = readString(item.id);
      if (id === null) return [];
      return [createEvent({ key: buildKey(FAKE, 'msg', [id]), source: FAKE, kind: 'message', type: 'text', sender: readString(item.from), providerTimestamp: null, fromMe: false, raw: item })];
    });
  }
}

/** The fake source's descriptor: what a real source's folder exports for its registry line. */
export const fake: SourceDescriptor<'fake'> = {
  name: 'fake',
  source: FakeSource,
  detection: { precedence: 0, matches: (body) => Array.isArray(body.fakeEvents) },
  readStatus: () => ({ messageId: null, status: null, error: null }),
  referenceTarget: NO_TARGET,
  tenancy: { keyedByTenant: false, receiptsByTenant: false },
  credentialHeaders: ['x-fake-key'],
};
