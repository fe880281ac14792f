import { TenantNotBoundError } from '../common/domain-errors.js';
import type { NormalizedEvent } from './shared/normalized-event.js';
import type { CredentialedSource, Verification } from './webhook-source.js';

/**
 * Every event of the webhook request, not only the first: a request naming two tenants must not
 * slip through. Whether a TENANTS_FILE entry covers an event's tenant is the source's rule.
 */
export function checkTenants(source: Pick<CredentialedSource, 'name' | 'coversTenant'>, events: readonly NormalizedEvent[], bound: readonly string[]): void {
  const stray = events.find((event) => event.tenant === null || !bound.some((name) => source.coversTenant(name, event.tenant!)));
  if (stray !== undefined) throw new TenantNotBoundError(source.name, stray.tenant);
}

/** The tenant a credential names when it is bound to exactly one. */
export function tenantOfBinding(verification: Verification): string | undefined {
  return verification.tenants?.length === 1 ? verification.tenants[0] : undefined;
}
