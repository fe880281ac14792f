import { Transform } from 'class-transformer';
import { MinLength } from 'class-validator';
import { eachItem, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

@Feature('Source: waha', 'WAHA (WhatsApp HTTP API). Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class WahaSettings {
  @Setting('WAHA webhook HMAC key(s); set: WAHA webhook requests must carry a valid `X-Webhook-Hmac`')
  @Transform(toList)
  @MinLength(8, eachItem('WAHA_WEBHOOK_HMAC_KEY must be at least 8 characters'))
  WAHA_WEBHOOK_HMAC_KEY: string[] = [];
}
