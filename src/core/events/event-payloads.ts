import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateTime, nullable } from '../openapi/declared-shape';

/**
 * One declaration per webhook event body (docs/decisions/webhooks.md, "Event bodies"): a TypeBox
 * schema per event type, in EVENT_PAYLOADS with the sample operation that shows it. The TypeScript
 * type of a body is `EventPayload<T>` (Static of its schema), and recordEvents takes the objects of
 * that type, so an emitter that builds a wrong body does not compile; the tests validate the real
 * published sample and the bodies written in a journey against the same schemas (ajv).
 *
 * Members the platform's published sample shows are declared as it shows them; members it does not
 * show (ours) carry `x-extension: true`.
 */

/** A public id as the published sample writes them: lowercase base-36. */
const Id = () => Type.String({ pattern: '^[0-9a-z]+$' });
const ext = <S extends TSchema>(s: S): S => ({ ...s, 'x-extension': true });

export const EventUserSchema = Type.Object({ id: Id(), email: Type.String(), first_name: Type.String(), last_name: Type.String() });
export const EventDomainSchema = Type.Object({ id: Id(), name: Type.String() });
export const EventCourseSchema = Type.Object({ id: Id(), published_course_id: Id(), title: Type.String(), url: Type.String() });
export const EventPathSchema = Type.Object({ id: Id(), published_path_id: Id(), title: Type.String(), url: Type.String() });
export const EventLessonSchema = Type.Object({ id: Id(), title: Type.String() });

/** `purchase` as the published sample shows it (a free registration: price 0, processor NONE). */
export const EventPurchaseSchema = Type.Object({
  id: Id(),
  purchase_price: Type.String(),
  order_id: Type.String(),
  original_price: Type.String(),
  offer_sku: Type.String(),
  price_cents: Type.Integer(),
  currency_code: Type.String(),
  state: Type.String(),
  quantity: Type.Integer(),
  /** null on a purchase whose date was never set (the sample shows one that has it) */
  purchased_at: nullable(DateTime()),
  payment_processor: Type.String(),
  payment_processor_order_id: Type.String(),
  promo_code_id: nullable(Type.String()),
  promo_code: nullable(Type.String()),
  promo_code_price_cents: nullable(Type.Integer()),
  promo_code_percent_off: nullable(Type.Number()),
  promo_code_quantity: Type.Integer(),
});

const SignupFieldEntrySchema = Type.Object({ value: Type.String(), signup_field: Type.Object({ id: Id(), label: Type.String() }) });

/** The `purchase` member, as events carry it. */
export type EventPurchase = Static<typeof EventPurchaseSchema>;

/** What every event carries (the published sample; `id` is ours: the sample has none, deliveries send it as webhook-id too). */
const common = {
  id: ext(Type.String({ description: 'The event id, also the webhook-id header of its deliveries.' })),
  timestamp: DateTime(),
  user: EventUserSchema,
  domain: EventDomainSchema,
  domain_access_code: nullable(Type.String()),
  signup_fields: Type.Record(Type.String(), SignupFieldEntrySchema),
};

/** `purchase` on the types that can come from one: null when nothing was bought. */
const purchase = Type.Union([EventPurchaseSchema, Type.Null()]);
const SuccessStatus = Type.Unsafe<'PASSED' | 'FAILED' | null>({ type: ['string', 'null'], enum: ['PASSED', 'FAILED', null] });
/** completions: success_status and score (published), completed_at (ours; left out where the writer does not know it). */
const completion = { success_status: SuccessStatus, score: nullable(Type.Number()), completed_at: Type.Optional(ext(DateTime())) };

const body = <K extends string, P extends Record<string, TSchema>>(type: K, members: P) =>
  Type.Object({ event_type: Type.Literal(type), ...common, ...members }, { additionalProperties: false, title: `${type} event` });

export const EventViltSessionSchema = Type.Object({
  id: Id(),
  display_name: Type.String(),
  instructor_name: Type.String(),
  seats_total: nullable(Type.Integer()),
  registration_count: Type.Integer(),
  events: Type.Array(
    Type.Object({
      id: Id(),
      display_name: Type.String(),
      starts_at: DateTime(),
      ends_at: DateTime(),
      timezone: Type.String(),
      location: nullable(Type.String()),
      event_link: nullable(Type.String()),
      provider: Type.String(),
    }),
  ),
});

/** Every event type: its body's declaration and the sample operation (GET /v1/webhooks/sample-*) that shows it. */
export const EVENT_PAYLOADS = {
  COURSE_COMPLETION: { sample: 'sample-course-completion', schema: body('COURSE_COMPLETION', { course: EventCourseSchema, ...completion }) },
  COURSE_ENROLLMENT: { sample: 'sample-course-enrollment', schema: body('COURSE_ENROLLMENT', { course: EventCourseSchema, purchase }) },
  DASHBOARD_TASK_CREATED: {
    sample: 'sample-dashboard-task-created',
    schema: body('DASHBOARD_TASK_CREATED', {
      task: ext(Type.Object({ id: Id(), title: Type.String(), created_at: DateTime() })),
      course: Type.Optional(EventCourseSchema),
    }),
  },
  DOMAIN_ENROLLMENT: { sample: 'sample-domain-enrollment', schema: body('DOMAIN_ENROLLMENT', { purchase }) },
  LESSON_COMPLETION: { sample: 'sample-lesson-completion', schema: body('LESSON_COMPLETION', { course: EventCourseSchema, lesson: EventLessonSchema, ...completion }) },
  PATH_COMPLETION: { sample: 'sample-path-completion', schema: body('PATH_COMPLETION', { path: EventPathSchema, ...completion }) },
  PATH_ENROLLMENT: { sample: 'sample-path-enrollment', schema: body('PATH_ENROLLMENT', { path: EventPathSchema, purchase }) },
  PURCHASE_FULFILLMENT: {
    sample: 'sample-purchase-fulfillment',
    schema: body('PURCHASE_FULFILLMENT', {
      purchase,
      course: Type.Optional(EventCourseSchema),
      path: Type.Optional(EventPathSchema),
      course_series: Type.Optional(ext(Type.Object({ id: Id(), published_course_ids: Type.Array(Id()) }))),
      plan: Type.Optional(ext(Type.Object({ id: Id() }))),
    }),
  },
  QUIZ_COMPLETION: {
    sample: 'sample-quiz-completion',
    schema: body('QUIZ_COMPLETION', {
      course: EventCourseSchema,
      quiz: Type.Object({ id: Id(), name: Type.String(), score: Type.Number(), passed: nullable(Type.Boolean()) }),
      attempt: ext(Type.Object({ id: Id(), attempt_number: Type.Integer() })),
      ...completion,
    }),
  },
  VILT_EVENT_REGISTRATION: {
    sample: 'sample-vilt-registration',
    schema: body('VILT_EVENT_REGISTRATION', { course: EventCourseSchema, lesson: ext(EventLessonSchema), vilt_session: EventViltSessionSchema }),
  },
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;
/** The body of an event of type T, as a delivery sends it. */
export type EventPayload<T extends EventType> = Static<(typeof EVENT_PAYLOADS)[T]['schema']>;

/** The members recordEvents writes itself (a caller may set domain_access_code, signup_fields and purchase). */
type Written = 'id' | 'event_type' | 'timestamp' | 'domain_access_code' | 'signup_fields' | 'purchase';
/** What an emitter gives for an event of type T: its body without the members recordEvents fills in. */
export type EventObjectsOf<T extends EventType> = Omit<EventPayload<T>, Written> &
  Partial<Pick<EventPayload<T>, Extract<Written, keyof EventPayload<T>> & ('domain_access_code' | 'signup_fields' | 'purchase')>>;
