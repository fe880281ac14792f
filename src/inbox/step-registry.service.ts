import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { WorkerStep, type EventStep } from './event-step.js';

export interface RegisteredStep {
  name: string;
  order: number;
  step: EventStep;
}

const STEP_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Every @WorkerStep provider in the application, in running order; checked once at boot. */
@Injectable()
export class StepRegistry implements OnModuleInit {
  private steps: RegisteredStep[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const found = this.discovery.getProviders({ metadataKey: WorkerStep.KEY }).flatMap((wrapper) => {
      const options = this.discovery.getMetadataByDecorator(WorkerStep, wrapper);
      return options && wrapper.instance ? [{ options, instance: wrapper.instance as EventStep, token: String(wrapper.name) }] : [];
    });
    const byName = new Map<string, RegisteredStep>();
    for (const { options, instance, token } of found) {
      if (!STEP_NAME.test(options.name)) throw new Error(`step ${token}: name "${options.name}" must match ${STEP_NAME}`);
      if (typeof instance.appliesTo !== 'function' || typeof instance.run !== 'function') {
        throw new Error(`step ${options.name} (${token}) must implement appliesTo() and run()`);
      }
      if (byName.has(options.name)) throw new Error(`two steps are named "${options.name}"; step names must be unique`);
      byName.set(options.name, { name: options.name, order: options.order ?? 100, step: instance });
    }
    this.steps = [...byName.values()].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  }

  /** The steps that apply to the event, in running order. */
  stepsFor(event: NormalizedEvent): RegisteredStep[] {
    return this.steps.filter((s) => s.step.appliesTo(event));
  }

  names(): string[] {
    return this.steps.map((s) => s.name);
  }
}
