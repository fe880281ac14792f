import { Logger, type OnModuleInit, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { NotFoundError, SourceDisabledError } from '../common/domain-errors.js';
import type { EnvironmentSettings } from '../config/settings/environment.settings.js';
import type { IngestSettings } from '../sources/ingest.settings.js';
import { registeredSources, SOURCE_NAMES, type SourceName } from '../sources/source-registry.js';
import type { TrustSettings } from '../sources/trust.settings.js';
import type { CredentialedSource, WebhookSource } from '../sources/webhook-source.js';
import type { TenantBindings } from '../tenants/tenant-bindings.js';

/** What deciding which sources are open reads: WEBHOOK_PROVIDERS, NODE_ENV, WEBHOOK_ALLOW_UNSIGNED. */
export interface WebhookSourcesSettings {
  ingest: IngestSettings;
  environment: EnvironmentSettings;
  trust: TrustSettings;
}

/**
 * The webhook sources and which of them are enabled (WEBHOOK_PROVIDERS). At start it enforces
 * the trust rule: in production every enabled source has a credential, unless the operator
 * named it in WEBHOOK_ALLOW_UNSIGNED.
 */
export class WebhookSources implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  private readonly all: ReadonlyMap<SourceName, WebhookSource>;
  private readonly enabled: ReadonlySet<SourceName>;

  /** One instance of every registered source's class, built by Nest with its dependencies (see WebhooksModule). */
  static async create(moduleRef: ModuleRef, settings: WebhookSourcesSettings, tenants: TenantBindings): Promise<WebhookSources> {
    const sources = await Promise.all(registeredSources().map(async (descriptor) => {
      const source = await moduleRef.create<WebhookSource>(descriptor.source as Type<WebhookSource>);
      if (source.name !== descriptor.name) throw new Error(`source ${descriptor.name}'s class names itself ${source.name}`);
      return source as CredentialedSource;
    }));
    return new WebhookSources(settings, tenants, sources);
  }

  constructor(
    private readonly settings: WebhookSourcesSettings,
    private readonly tenants: TenantBindings,
    sources: readonly CredentialedSource[],
  ) {
    for (const source of sources) source.bindTenants(tenants.of(source.name));
    this.all = new Map(sources.map((source) => [source.name, source]));
    this.enabled = new Set(settings.ingest.WEBHOOK_PROVIDERS);
  }

  /**
   * The source a URL names (or a body's shape belongs to): 404 when there is no such source or
   * the URL goes on past a source that takes no suffix, 403 when it is not enabled.
   */
  named(name: string, urlSuffix = ''): WebhookSource {
    const source = this.all.get(name as SourceName);
    if (!source) throw new NotFoundError(`no webhook source ${name}: use one of ${SOURCE_NAMES.join(', ')}`);
    if (urlSuffix !== '' && !source.takesUrlSuffix) throw new NotFoundError(`no webhook URL /webhook/${name}/${urlSuffix}: post to /webhook/${name}`);
    return this.ifEnabled(source);
  }

  onModuleInit(): void {
    const enabled = [...this.enabled].map((name) => this.all.get(name)!);
    const problems = enabled.map((source) => source.configurationProblem?.() ?? null).filter((problem) => problem !== null);
    if (problems.length > 0) throw new Error(problems.join('; '));
    const unsigned = enabled.filter((source) => !source.hasCredential);
    const production = this.settings.environment.NODE_ENV === 'production';
    const refused = unsigned.filter((source) => production && !this.settings.trust.WEBHOOK_ALLOW_UNSIGNED.includes(source.name));
    if (refused.length > 0) {
      // One line, read by whoever deploys: what is open and how to close it.
      throw new Error(
        refused
          .map((s) => `webhook source ${s.name} has no credential: set ${s.credentialVariable}, or remove ${s.name} from WEBHOOK_PROVIDERS, or name it in WEBHOOK_ALLOW_UNSIGNED to take unauthenticated webhook requests`)
          .join('; '),
      );
    }
    for (const source of enabled) this.announceTenantBindings(source as CredentialedSource);
    for (const source of unsigned) {
      this.logger.warn(
        `webhook source ${source.name} takes unauthenticated webhook requests (${source.credentialVariable} is not set): ` +
          `anyone who can reach /webhook/${source.name} can store events; they are forwarded marked authenticated=false and never change receipts`,
      );
    }
  }

  /**
   * TENANTS_FILE wins over the environment for a source it binds: an environment credential
   * means any tenant, so one left over would reopen the hole the file closes.
   */
  private announceTenantBindings(source: CredentialedSource): void {
    const bound = this.tenants.of(source.name).length;
    if (bound === 0) return;
    const ignored = source.replacedCredentials.length > 0 ? `; its credentials from the environment (${source.credentialVariable}) are ignored` : '';
    this.logger.log(`webhook source ${source.name}: TENANTS_FILE binds credentials to ${bound} tenant(s) and wins${ignored}`);
  }

  private ifEnabled(source: WebhookSource): WebhookSource {
    if (this.enabled.has(source.name)) return source;
    throw new SourceDisabledError(`webhook source ${source.name} is not enabled (WEBHOOK_PROVIDERS=${[...this.enabled].join(',')})`);
  }
}
