import type { SettingsClass } from '../config/settings/setting.js';
import type { JsonObject } from './shared/payload-values.js';
import type { StatusReader } from './shared/status-ladder.js';
import type { WebhookSource } from './webhook-source.js';

/**
 * How POST /webhook (one URL for every JSON source) recognises a source's bodies. Detectors are
 * tried by ascending `precedence`, the most specific envelope first; among equals, in registry
 * order. A source without one is reached at its own URL only.
 */
export interface BodyDetection {
  precedence: number;
  matches(body: JsonObject): boolean;
}

/** Where a source's raw item names the message a reaction, an edit or a deletion is about; null when it names none. */
export type TargetReader = (raw: Record<string, unknown>) => string | null;

/**
 * How a source numbers things per tenant (its business number, session or instance). Which
 * tenants a TENANTS_FILE entry covers is its source class's rule (WebhookSource.coversTenant).
 */
export interface Tenancy {
  /** Message ids are unique per tenant only: message keys carry the tenant (gateways). */
  keyedByTenant: boolean;
  /** Outbound-message status records (receipts) are kept per tenant. */
  receiptsByTenant: boolean;
}

/**
 * Everything the service needs to know about one source, in its folder (src/sources/<name>/).
 * The registry lists one per source; names, dependency injection, detection, the status and
 * reference tables, log redaction and the OpenAPI enums are derived from that list.
 */
export interface SourceDescriptor<N extends string = string> {
  /** In the URL (/webhook/<name>), the `provider` field and column, WEBHOOK_PROVIDERS and metric labels. */
  readonly name: N;
  /**
   * The class that verifies and parses its webhook requests, built by Nest: it injects its own
   * settings class (and any other feature's it reads).
   */
  readonly source: new (...settings: never[]) => WebhookSource;
  /**
   * Its settings (`<name>.settings.ts`): validated at boot with every feature's, printed in
   * docs/configuration.md under the source's own heading, and injectable by its class.
   */
  readonly settings?: SettingsClass;
  readonly detection?: BodyDetection;
  /** Reads its status events onto the receipt ladder (sent → delivered → read → played; failed). */
  readonly readStatus: StatusReader;
  readonly referenceTarget: TargetReader;
  readonly tenancy: Tenancy;
  /** Request headers (lower case) whose values are credentials: censored should anything log headers. */
  readonly credentialHeaders: readonly string[];
}

/** A reader for a source whose events never refer to another message. */
export const NO_TARGET: TargetReader = () => null;
