import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { DateTime, declaredV1, deviates, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { presentUser, UserSchema } from '../students/user-refs.presenter';
import type { InstructorRow } from './instructors.service';
import type { RegistrationRow } from './registrations.service';
import type { MultiSessionRow } from './multi-sessions.service';
import type { EventRow } from './sessions.service';

/** The published IltInstructor, with the `id` of /v1/ilt-instructors/{id} (CONVENTIONS §13), declared once (core/openapi/declared-shape.ts). */
export const IltInstructorSchema = declaredV1(
  'IltInstructor',
  Type.Object({ id: PublicId(ext({ description: 'the id of /v1/ilt-instructors/{id}' })), email: Type.String({ format: 'email' }), name: Type.String(), providers: Type.Array(Type.String()) }),
);

export const presentInstructor = (r: InstructorRow): Static<typeof IltInstructorSchema> => ({ id: encodeId('iltInstructor', r.id), email: r.email, name: r.name, providers: r.providers });

/** The published IltMultiSessionEvent; `seats_total` left out when unlimited (optional, not nullable). */
export const IltMultiSessionEventSchema = declaredV1(
  'IltMultiSessionEvent',
  Type.Object({ id: PublicId(), lesson: PublicId(), display_name: Type.String(), seats_total: Type.Optional(Type.Integer()) }),
);

export const presentMultiSessionEvent = (r: MultiSessionRow): Static<typeof IltMultiSessionEventSchema> =>
  omitEmpty(
    {
      id: encodeId('viltSession', r.id),
      lesson: encodeId('lesson', r.lesson_id),
      display_name: r.display_name,
      seats_total: r.seats_total,
    },
    ['seats_total'],
  );

/** The instructor as it was given: the display-name form for a calendar session that has a name. */
const instructorEmail = (r: EventRow) => (r.provider === 'calendar' && r.instructor_name ? `${r.instructor_name} <${r.instructor_email}>` : r.instructor_email);

/**
 * IltSession: the event's members and its session's. A session of a multi-session event names the
 * event (`multi_session_event`) and carries neither `seats_total` nor `tags` (they are the
 * multi-session event's, and cannot be written here), so a read can be written back unchanged.
 * `vilt_session` (beyond the published schema) is the id learners register for. Members without a
 * value are left out (optional, not nullable in the published IltSession: CONVENTIONS §16).
 */
export const IltSessionSchema = declaredV1(
  'IltSession',
  Type.Object({
    id: PublicId(),
    instructor_email: Type.String(),
    provider: Type.String(),
    lesson: Type.Optional(PublicId()),
    multi_session_event: Type.Optional(PublicId()),
    display_name: Type.String(),
    starts_at: DateTime(),
    ends_at: DateTime(),
    timezone: Type.String(),
    description: Type.Optional(Type.String()),
    seats_total: Type.Optional(Type.Integer()),
    location: Type.Optional(Type.String()),
    event_link: Type.Optional(Type.String({ format: 'uri' })),
    post_registration_instructions: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String())),
    vilt_session: Type.Object({ id: PublicId() }, ext({ description: 'the session learners register for' })),
  }),
);

export const presentIltSession = (r: EventRow): Static<typeof IltSessionSchema> =>
  omitEmpty(
    {
      id: encodeId('viltSessionEvent', r.id),
      instructor_email: instructorEmail(r),
      provider: r.provider,
      lesson: r.is_multi_session ? null : encodeId('lesson', r.lesson_id),
      multi_session_event: r.is_multi_session ? encodeId('viltSession', r.session_id) : null,
      display_name: r.display_name,
      starts_at: iso(r.starts_at)!,
      ends_at: iso(r.ends_at)!,
      timezone: r.timezone,
      description: r.description,
      seats_total: r.is_multi_session ? null : r.seats_total,
      location: r.location,
      event_link: r.event_link,
      post_registration_instructions: r.post_registration_instructions,
      ...(r.is_multi_session ? {} : { tags: r.tags }),
      vilt_session: { id: encodeId('viltSession', r.session_id) },
    },
    ['lesson', 'multi_session_event', 'description', 'location', 'event_link', 'post_registration_instructions', 'seats_total'],
  );

/** The published LessonCourseListItem: the lesson with its course. */
const LessonCourseSchema = Type.Object({ id: PublicId(), title: Type.String(), course: Type.Object({ id: PublicId(), title: Type.String() }) });

const lessonItem = (r: { lesson_id: string; lesson_title: string; course_id: string; course_title: string }): Static<typeof LessonCourseSchema> => ({
  id: encodeId('lesson', r.lesson_id),
  title: r.lesson_title,
  course: { id: encodeId('course', r.course_id), title: r.course_title },
});

/**
 * The published ViltSessionEvent with its ViltSession. `event_location` is the event's place (no
 * location catalog here): null without a location, as the live API's nested serializer answers an
 * empty one, although the published schema makes it required and not nullable; the session's
 * `seats_total` is left out for an unlimited session, as the same session's IltSession and
 * IltMultiSessionEvent leave it out, although the published ViltSession requires it (both in
 * docs/decisions/conformance.md, "Allowed exceptions"). `location`, the place's `info_url` and the
 * session's `instructor_name` are left out without a value (CONVENTIONS §16).
 */
export const SessionEventSchema = declaredV1(
  'ViltSessionEvent',
  Type.Object({
    id: PublicId(),
    starts_at: DateTime(),
    ends_at: DateTime(),
    timezone: Type.String(),
    location: Type.Optional(Type.String()),
    event_location: nullable(
      Type.Object(
        { name: Type.String(), is_active: Type.Boolean(), info_url: Type.Optional(Type.String()) },
        deviates({ null: 'an online event has no place: null, as the live API answers an empty relation (docs/decisions/conformance.md)' }),
      ),
    ),
    vilt_session: Type.Object({
      id: PublicId(),
      display_name: Type.String(),
      instructor_name: Type.Optional(Type.String()),
      lesson: LessonCourseSchema,
      registration_count: Type.Integer(),
      seats_total: Type.Optional(Type.Integer(deviates({ leftOut: 'an unlimited session has no seat count: left out, as in its IltSession (docs/decisions/conformance.md)' }))),
    }),
  }),
);

export const presentSessionEvent = (r: EventRow): Static<typeof SessionEventSchema> =>
  omitEmpty(
    {
      id: encodeId('viltSessionEvent', r.id),
      starts_at: iso(r.starts_at)!,
      ends_at: iso(r.ends_at)!,
      timezone: r.timezone,
      location: r.location,
      event_location: r.location ? omitEmpty({ name: r.location, is_active: true, info_url: r.event_link }, ['info_url']) : null,
      vilt_session: omitEmpty(
        {
          id: encodeId('viltSession', r.session_id),
          display_name: r.session_display_name,
          instructor_name: r.instructor_name,
          lesson: lessonItem(r),
          registration_count: r.registration_count,
          seats_total: r.seats_total,
        },
        ['instructor_name', 'seats_total'],
      ),
    },
    ['location'],
  );

const user = (r: RegistrationRow) => presentUser({ id: r.user_id, email: r.email ?? '', first_name: r.first_name ?? '', last_name: r.last_name ?? '' }, r.user_id);

/** The published ViltSessionRegistrationListItem. */
export const RegistrationItemSchema = declaredV1(
  'ViltSessionRegistrationListItem',
  Type.Object({ id: PublicId(), attended: Type.Boolean(), user: UserSchema, vilt_session: Type.Object({ id: PublicId() }) }),
);

export const presentRegistrationItem = (r: RegistrationRow): Static<typeof RegistrationItemSchema> => ({
  id: encodeId('viltRegistration', r.id),
  attended: r.attended,
  user: user(r),
  vilt_session: { id: encodeId('viltSession', r.session_id) },
});

/**
 * The published ViltSessionRegistrationDetail: the learner's progress of the session's lesson
 * (`student_lesson_progress.id` is required and not nullable: the registration makes that progress,
 * RegistrationsService.create). A registration stored without one (made before that rule, its lesson
 * since deleted) answers `null` rather than failing: a declared departure.
 */
export const RegistrationSchema = declaredV1(
  'ViltSessionRegistrationDetail',
  Type.Object({
    id: PublicId(),
    attended: Type.Boolean(),
    student_lesson_progress: Type.Object({
      id: nullable(
        Type.String(
          deviates({
            null: 'a registration stored without its lesson progress (made before create always made it, its lesson since deleted): null, not a failure (docs/decisions/training.md)',
          }),
        ),
      ),
      lesson: LessonCourseSchema,
      user: UserSchema,
    }),
    vilt_session: Type.Object({ id: PublicId() }),
  }),
);

export const presentRegistration = (r: RegistrationRow): Static<typeof RegistrationSchema> => ({
  id: encodeId('viltRegistration', r.id),
  attended: r.attended,
  student_lesson_progress: {
    id: r.lesson_progress_id ? encodeId('lessonProgress', r.lesson_progress_id) : null,
    lesson: lessonItem(r),
    user: user(r),
  },
  vilt_session: { id: encodeId('viltSession', r.session_id) },
});

/** The published ViltSessionRegistrationUpdate. */
export const RegistrationUpdateSchema = declaredV1('ViltSessionRegistrationUpdate', Type.Object({ id: PublicId(), attended: Type.Boolean() }));

export const presentRegistrationUpdate = (r: RegistrationRow): Static<typeof RegistrationUpdateSchema> => ({ id: encodeId('viltRegistration', r.id), attended: r.attended });
