import { Type, type Static } from '@sinclair/typebox';
import { DateTime, PublicId, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import type { CreatedLaunch } from './launches.service';

/**
 * A launch of a web-package lesson (extension, docs/decisions/content-runs.md), declared once
 * (core/openapi/declared-shape.ts): the /v1 answer and the /v2 resource's attributes share the
 * members; each presenter's result is the type of its declaration, and /openapi.json serves the
 * declaration (`openApi(...)` in the controllers' @ApiResponse).
 */
const LAUNCH_MEMBERS = {
  launch_url: Type.String({ format: 'uri', description: 'Opens the lesson once, within 5 minutes.' }),
  expires_at: DateTime({ description: 'When launch_url expires unused.' }),
  registration: Type.String({ description: "The registration of the learner's attempt (xAPI / cmi5)." }),
  item: Type.String({ description: "The item of the package the launch plays (SCORM item identifier, cmi5 AU id; '' for a TinCan package)." }),
};

/** The /v1 launch answer `{launch_url, expires_at, registration, item}`. */
export const LaunchV1Schema = Type.Object(LAUNCH_MEMBERS, { description: 'A launch of a web-package lesson.' });
export type LaunchV1 = Static<typeof LaunchV1Schema>;

/** The /v2 `launches` resource (no self link: a launch is not read back). */
export const LaunchV2Schema = V2UnlinkedResourceSchema(
  'launches',
  Type.Object({
    ...LAUNCH_MEMBERS,
    lesson_id: PublicId({ description: 'Opaque id of the lesson, as sent.' }),
    student_id: PublicId({ description: 'Opaque id of the student, as sent.' }),
  }),
  { description: 'A launch of a web-package lesson.' },
);
export type LaunchV2 = Static<typeof LaunchV2Schema>;

/** A created launch as the /v1 answer. */
export function presentLaunchV1(l: CreatedLaunch): LaunchV1 {
  return { launch_url: l.launch_url, expires_at: l.expires_at, registration: l.registration, item: l.item };
}

/** A created launch as the /v2 resource, with the lesson and student ids as sent. */
export function presentLaunchV2(l: CreatedLaunch, lessonId: string, studentId: string): LaunchV2 {
  return { type: 'launches', id: l.id, attributes: { launch_url: l.launch_url, expires_at: l.expires_at, registration: l.registration, item: l.item, lesson_id: lessonId, student_id: studentId } };
}
