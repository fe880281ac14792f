import { TenantNotBoundError } from '../../common/domain-errors.js';
import type { NormalizedEvent, ProviderName } from '../../events/normalized-event.js';
import type { Verification } from './webhook-source.js';

/**
 * Whether an event's tenant is one a TENANTS_FILE entry names. Twilio's tenant is
 * `<AccountSid>:<business number>`, and an Auth Token belongs to the account: an entry naming
 * the AccountSid covers every number of that account.
 */
export function isBoundTenant(provider: ProviderName, tenant: string | null, bound: readonly string[]): boolean {
  if (tenant === null) return false;
  return bound.some((name) => name === tenant || (provider === 'twilio' && !name.includes(':') && tenant.startsWith(`${name}:`)));
}

/** Every event of the delivery, not only the first: a delivery naming two tenants must not slip through. */
export function checkTenants(source: ProviderName, events: readonly NormalizedEvent[], bound: readonly string[]): void {
  const stray = events.find((event) => !isBoundTenant(source, event.tenant, bound));
  if (stray !== undefined) throw new TenantNotBoundError(source, stray.tenant);
}

/** The tenant a credential names when it is bound to exactly one. */
export function tenantOfBinding(verification: Verification): string | undefined {
  return verification.tenants?.length === 1 ? verification.tenants[0] : undefined;
}
