import { EVENT_PAYLOADS, type EventObjectsOf, type EventPayload, type EventType } from '../../core/events/event-payloads';
import { ID_PREFIXES, IdType } from '../../core/ids/ids';

/** Each event type's sample path (GET /v1/webhooks/sample-*), derived from its declaration (core/events/event-payloads.ts). */
export const EVENT_SAMPLE_PATHS = Object.fromEntries(Object.entries(EVENT_PAYLOADS).map(([type, d]) => [type, d.sample])) as { readonly [T in EventType]: (typeof EVENT_PAYLOADS)[T]['sample'] };

/** The sample-* paths and the event type each one shows (derived from EVENT_SAMPLE_PATHS). */
export const SAMPLE_PATHS: Record<string, EventType> = Object.fromEntries(Object.entries(EVENT_SAMPLE_PATHS).map(([type, path]) => [path, type as EventType]));

/** A recognisable id of the type that decodes to nothing (its 25 digits pass 2^128). */
const sampleId = (type: IdType) => `${ID_PREFIXES[type]}samplesamplesample0000000`;

/**
 * Generated sample events, used when the organization has no real event of the type yet. Same
 * members as the real ones (CONVENTIONS.md sections 6 and 10, webhook-event-samples.md): id,
 * event_type, timestamp, user, domain, domain_access_code, signup_fields (keyed by field id), the
 * object the event concerns, `purchase` on the types that can come from one (a course or path
 * enrollment carries the $0 NONE purchase every registration records, as the real sample shows;
 * a domain enrollment none; the purchase fulfilment sample a paid one), `success_status` and
 * `score` on completions.
 * Ids are recognisable sample ids of the right type that resolve to nothing.
 */
export function sampleEvent<T extends EventType>(type: T, now = new Date()): EventPayload<T> {
  const domain = { id: sampleId('domain'), name: 'example.courses.test' };
  const user = { id: sampleId('student'), email: 'learner@example.com', first_name: 'Sample', last_name: 'Learner' };
  const course = { id: sampleId('course'), published_course_id: sampleId('publishedCourse'), title: 'Sample Course', url: 'https://example.courses.test/sample-course' };
  const path = { id: sampleId('path'), published_path_id: sampleId('publishedPath'), title: 'Sample Path', url: 'https://example.courses.test/path/sample-path' };
  const field = sampleId('signupField');
  const member = {
    domain_access_code: 'SAMPLE-CODE',
    signup_fields: { [field]: { value: 'true', signup_field: { id: field, label: 'employee' } } },
  };
  const at = now.toISOString();
  const completion = { success_status: 'PASSED' as const, score: 90 };
  const purchase = {
    id: 'pursamplesamplesample0000000',
    purchase_price: '49.00',
    order_id: 'SAMPLE01',
    original_price: '49.00',
    offer_sku: 'ofrsamplesamplesample0000000',
    price_cents: 4900,
    currency_code: 'USD',
    state: 'SUCCESS',
    quantity: 1,
    purchased_at: at,
    payment_processor: 'NONE',
    payment_processor_order_id: '',
    promo_code_id: null,
    promo_code: null,
    promo_code_price_cents: null,
    promo_code_percent_off: null,
    promo_code_quantity: 0,
  };
  const freePurchase = { ...purchase, id: 'pursamplesamplesample0000001', order_id: 'SAMPLE02', purchase_price: '0.00', original_price: '0.00', price_cents: 0 };
  const objects: { [K in EventType]: EventObjectsOf<K> & Pick<EventPayload<K>, 'domain_access_code' | 'signup_fields'> } = {
    COURSE_COMPLETION: { user, course, domain, ...member, ...completion, completed_at: at },
    COURSE_ENROLLMENT: { user, course, purchase: freePurchase, domain, ...member },
    DASHBOARD_TASK_CREATED: { task: { id: 'tsksamplesamplesample0000000', title: 'Review a submission', created_at: at }, user, course, domain, ...member },
    DOMAIN_ENROLLMENT: { user, purchase: null, domain, ...member },
    LESSON_COMPLETION: { user, course, domain, ...member, lesson: { id: sampleId('lesson'), title: 'Sample Lesson' }, ...completion, completed_at: at },
    PATH_COMPLETION: { user, path, domain, ...member, ...completion, completed_at: at },
    PATH_ENROLLMENT: { user, path, purchase: freePurchase, domain, ...member },
    PURCHASE_FULFILLMENT: { user, course, purchase, domain, ...member },
    QUIZ_COMPLETION: {
      user,
      course,
      domain,
      ...member,
      quiz: { id: sampleId('quiz'), name: 'Sample Quiz', score: 90, passed: true },
      attempt: { id: sampleId('quizAttempt'), attempt_number: 1 },
      ...completion,
      completed_at: at,
    },
    VILT_EVENT_REGISTRATION: {
      user,
      course,
      domain,
      ...member,
      lesson: { id: sampleId('lesson'), title: 'Sample Live Lesson' },
      vilt_session: {
        id: sampleId('viltSession'),
        display_name: 'Sample Session',
        instructor_name: 'Sample Instructor',
        seats_total: 20,
        registration_count: 1,
        events: [
          {
            id: sampleId('viltSessionEvent'),
            display_name: 'Sample Session',
            starts_at: at,
            ends_at: new Date(now.getTime() + 3_600_000).toISOString(),
            timezone: 'America/New_York',
            location: null,
            event_link: 'https://meet.example.com/sample',
            provider: 'calendar',
          },
        ],
      },
    },
  };
  return { id: sampleId('event'), event_type: type, timestamp: at, ...objects[type] } as EventPayload<T>;
}

/** The objects of a generated sample event of the type (what an emitter gives recordEvents): for tests of the delivery machinery, which need a well-formed body of any type. */
export function sampleObjects<T extends EventType>(type: T): EventObjectsOf<T> {
  const { id: _id, event_type: _type, timestamp: _at, domain_access_code: _code, signup_fields: _fields, ...objects } = sampleEvent(type) as EventPayload<EventType>;
  return objects as unknown as EventObjectsOf<T>;
}
