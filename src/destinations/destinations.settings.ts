import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { emptyToUndefined } from '../config/config-transforms.js';
import { Feature, Setting, type SettingsOf } from '../config/settings/setting.js';
import { StepsSettings } from '../outbound/steps.settings.js';

/** A destination's attempts and timeout default to MAX_ATTEMPTS and FORWARD_TIMEOUT_MS. */
@Feature('Destinations', 'Several downstream URLs, each with a filter, its own attempts and delivery state per event ([destinations](destinations.md)).')
export class DestinationsSettings {
  @Setting(
    'a YAML or JSON file of destinations (see [destinations](destinations.md), example [destinations.example.yaml](destinations.example.yaml)); read and validated at start; not together with `FORWARD_URL`',
  )
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'DESTINATIONS_FILE must be a file path' })
  DESTINATIONS_FILE?: string;

  static check(settings: DestinationsSettings, of: SettingsOf): string[] {
    // Until FORWARD_URL becomes the one-destination shorthand, the two would forward every event twice.
    return settings.DESTINATIONS_FILE !== undefined && of(StepsSettings).FORWARD_URL !== undefined
      ? ['FORWARD_URL and DESTINATIONS_FILE: set one (put FORWARD_URL into the file as a destination)']
      : [];
  }
}
