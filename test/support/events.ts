import type { EventType, PendingEvent } from '../../src/core/events/outbox';
import { sampleObjects } from '../../src/modules/webhooks/samples';

/**
 * An event for tests of the delivery machinery: a well-formed body of the type (the generated
 * sample's objects, core/events/event-payloads.ts) with the members the test cares about replaced.
 */
export function testEvent(organizationId: string, type: EventType, objects: Record<string, unknown> = {}): PendingEvent {
  return { organizationId, type, objects: { ...sampleObjects(type), ...objects } } as PendingEvent;
}
