import { Module } from '@nestjs/common';
import { DestinationsModule } from '../../destinations/destinations.module.js';
import { DestinationsStep } from './destinations.step.js';

@Module({ imports: [DestinationsModule], providers: [DestinationsStep] })
export class DestinationsStepModule {}
