/** A TENANTS_FILE entry as a source uses it: the credentials that prove a request is that tenant's. */
export interface TenantCredentials {
  readonly tenant: string;
  readonly credentials: readonly string[];
}
