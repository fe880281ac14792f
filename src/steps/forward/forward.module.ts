import { Module } from '@nestjs/common';
import { OutboundModule } from '../../outbound/outbound.module.js';
import { ForwardStep } from './forward.step.js';

@Module({ imports: [OutboundModule], providers: [ForwardStep] })
export class ForwardModule {}
