import { Module } from '@nestjs/common';
import { ForwardStep } from './forward.step.js';

@Module({ providers: [ForwardStep] })
export class ForwardModule {}
