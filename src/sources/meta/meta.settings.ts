import { Transform } from 'class-transformer';
import { MinLength } from 'class-validator';
import { eachItem, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

@Feature('Source: meta', 'Meta\'s WhatsApp Cloud API. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class MetaSettings {
  @Setting('token(s) Meta\'s subscription handshake must present; unset: every handshake is refused')
  @Transform(toList)
  @MinLength(1, eachItem('WHATSAPP_VERIFY_TOKEN must not be empty'))
  WHATSAPP_VERIFY_TOKEN: string[] = [];

  @Setting('Meta app secret(s); set: Meta webhook requests must carry a valid `X-Hub-Signature-256`')
  @Transform(toList)
  @MinLength(8, eachItem('WHATSAPP_APP_SECRET is too short to be a Meta app secret'))
  WHATSAPP_APP_SECRET: string[] = [];
}
