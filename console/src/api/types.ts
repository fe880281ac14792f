import type { components, paths } from './schema';
import { SOURCES } from './sources';

/** The operator API's routes, generated from its OpenAPI document (npm run console:api). */
export type ApiPaths = paths;

type Schemas = components['schemas'];
export type MessageSummary = Schemas['MessageSummaryDto'];
export type MessageDetail = Schemas['MessageDetailDto'];
export type MessageStats = Schemas['MessageStatsDto'];
export type DestinationOverview = Schemas['DestinationOverviewDto'];
export type DestinationDelivery = Schemas['DestinationDeliveryDto'];
/** A receipt: an outbound message's status record (the API keeps its public name, /deliveries). */
export type Receipt = Schemas['DeliveryDto'];
export type ListQuery = NonNullable<paths['/messages']['get']['parameters']['query']>;
export type BulkReplayQuery = NonNullable<paths['/messages/replay']['post']['parameters']['query']>;
export type Status = MessageSummary['status'];
export type Source = MessageSummary['provider'];
export type Kind = MessageSummary['kind'];
export type Activity = ApiPaths['/messages/activity']['get']['responses'][200]['content']['application/json'];
export type ActivityRange = NonNullable<NonNullable<ApiPaths['/messages/activity']['get']['parameters']['query']>['range']>;
export type CountName = keyof Activity['totals'];

/** Every value of a union, checked both ways against the document's enum. */
const all = <T extends string>() => <const A extends readonly T[]>(values: A & ([T] extends [A[number]] ? unknown : 'a value is missing')) => values;

export const STATUSES = all<Status>()(['received', 'processing', 'processed', 'failed', 'dead']);
/** The sources, generated from the document with schema.d.ts (npm run console:api), in the service's order. */
export const SOURCE_NAMES = all<Source>()(SOURCES);
export const KINDS = all<Kind>()(['message', 'status', 'other']);
export const RANGES = all<ActivityRange>()(['hour', 'day', 'week']);
export const COUNT_NAMES = ['accepted', 'duplicates', 'processed', 'failed', 'dead'] as const satisfies readonly CountName[];
