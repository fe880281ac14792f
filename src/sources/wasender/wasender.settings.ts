import { Transform } from 'class-transformer';
import { IsOptional, MaxLength, MinLength } from 'class-validator';
import { eachItem, emptyToUndefined, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

@Feature('Source: wasender', 'WASenderApi. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class WasenderSettings {
  @Setting('WASender webhook secret(s); set: WASender webhook requests must carry one in `X-Webhook-Signature`')
  @Transform(toList)
  @MinLength(8, eachItem('WASENDER_WEBHOOK_SECRET must be at least 8 characters'))
  WASENDER_WEBHOOK_SECRET: string[] = [];

  @Setting('the tenant given to WASender events (WASender\'s body names no business number); not with a `TENANTS_FILE` that binds WASender')
  @Transform(emptyToUndefined)
  @IsOptional()
  @MaxLength(128, { message: 'WASENDER_TENANT must be at most 128 characters' })
  WASENDER_TENANT?: string;
}
