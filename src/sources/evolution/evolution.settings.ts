import { Transform } from 'class-transformer';
import { Matches, MinLength } from 'class-validator';
import { eachItem, HEADER_NAME, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

@Feature('Source: evolution', 'Evolution API. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class EvolutionSettings {
  @Setting('Evolution API key(s) or header secret(s); set: Evolution webhook requests must carry one in `apikey` or in `EVOLUTION_HEADER_NAME`')
  @Transform(toList)
  @MinLength(16, eachItem('EVOLUTION_API_KEY must be at least 16 characters'))
  EVOLUTION_API_KEY: string[] = [];

  @Setting('the header Evolution\'s webhook `headers` setting sends the key in (`Bearer ` optional), when the body has none')
  @Matches(HEADER_NAME, { message: 'EVOLUTION_HEADER_NAME must be an HTTP header name' })
  EVOLUTION_HEADER_NAME = 'authorization';
}
