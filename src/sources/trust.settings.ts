import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MinLength } from 'class-validator';
import { SOURCE_NAMES as SOURCE_NAMES, type SourceName as SourceName } from './source-registry.js';
import { eachItem, emptyToUndefined, toList } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

/**
 * Who may reach the inbox and the operator API. In production the HTTP service refuses to start
 * with a source that has no credential unless WEBHOOK_ALLOW_UNSIGNED names it (WebhookSources),
 * or without INSPECTION_API_KEY (InspectionModule): both need what only those modules know.
 */
@Feature('Trust', 'Who may reach the inbox and the operator API. Every secret takes a comma-separated list, so that the old and the new value both work during a rotation.')
export class TrustSettings {
  @Setting('sources that may run without a credential when `NODE_ENV=production` (warned at every start; their events are stored as unauthenticated)')
  @Transform(toList)
  @IsIn(SOURCE_NAMES, eachItem(`WEBHOOK_ALLOW_UNSIGNED must list only ${SOURCE_NAMES.join(', ')}`))
  WEBHOOK_ALLOW_UNSIGNED: SourceName[] = [];

  @Setting('bearer key(s) for the operator API (`/messages`, `/deliveries`) and the console (16+ characters each); required when `NODE_ENV=production`')
  @Transform(toList)
  @MinLength(16, eachItem('INSPECTION_API_KEY must be at least 16 characters'))
  INSPECTION_API_KEY: string[] = [];

  @Setting(
    'a YAML or JSON file binding each source\'s credentials to tenants, so one tenant\'s credential authenticates only that tenant; for a source it names it replaces the environment credentials (example: [tenants.example.yaml](tenants.example.yaml)); read and validated at start',
  )
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'TENANTS_FILE must be a file path' })
  TENANTS_FILE?: string;
}
