import type { EventType } from '../../core/events/outbox';

/** The ten sample-* paths and the event type each one shows. */
export const SAMPLE_PATHS: Record<string, EventType> = {
  'sample-course-completion': 'COURSE_COMPLETION',
  'sample-course-enrollment': 'COURSE_ENROLLMENT',
  'sample-dashboard-task-created': 'DASHBOARD_TASK_CREATED',
  'sample-domain-enrollment': 'DOMAIN_ENROLLMENT',
  'sample-lesson-completion': 'LESSON_COMPLETION',
  'sample-path-completion': 'PATH_COMPLETION',
  'sample-path-enrollment': 'PATH_ENROLLMENT',
  'sample-purchase-fulfillment': 'PURCHASE_FULFILLMENT',
  'sample-quiz-completion': 'QUIZ_COMPLETION',
  'sample-vilt-registration': 'VILT_EVENT_REGISTRATION',
};

/**
 * Generated sample events, used when the organization has no real event of the type yet. Same
 * shape as the real ones (CONVENTIONS.md section 6): id, event_type, timestamp, then the objects.
 * Ids are fixed, recognisable sample ids (they resolve to nothing).
 */
export function sampleEvent(type: EventType, now = new Date()): Record<string, unknown> {
  const domain = { id: 'dom_sampleSampleSample000', name: 'example.courses.test' };
  const user = { id: 'stu_sampleSampleSample000', email: 'learner@example.com', first_name: 'Sample', last_name: 'Learner' };
  const course = { id: 'crs_sampleSampleSample000', published_course_id: 'pcs_sampleSampleSample000', title: 'Sample Course', url: 'https://example.courses.test/sample-course' };
  const path = { id: 'pth_sampleSampleSample000', published_path_id: 'ppth_sampleSampleSample000', title: 'Sample Path', url: 'https://example.courses.test/path/sample-path' };
  const at = now.toISOString();
  const objects: Record<EventType, Record<string, unknown>> = {
    COURSE_COMPLETION: { user, course, domain, completed_at: at },
    COURSE_ENROLLMENT: { user, course, domain },
    DASHBOARD_TASK_CREATED: { task: { id: 'task_sampleSampleSample00', title: 'Review a submission', created_at: at }, user, course, domain },
    DOMAIN_ENROLLMENT: { user, domain },
    LESSON_COMPLETION: { user, course, domain, lesson: { id: 'les_sampleSampleSample000', title: 'Sample Lesson' }, completed_at: at },
    PATH_COMPLETION: { user, path, domain, completed_at: at },
    PATH_ENROLLMENT: { user, path, domain },
    PURCHASE_FULFILLMENT: {
      user,
      domain,
      purchase: { id: 'pur_sampleSampleSample000', state: 'SUCCESS', total: { amount: '49.00', currency_code: 'USD' }, items: [{ course }] },
    },
    QUIZ_COMPLETION: { user, course, domain, quiz: { id: 'quiz_sampleSampleSample00', title: 'Sample Quiz', score: 90, passed: true }, completed_at: at },
    VILT_EVENT_REGISTRATION: { user, course, domain, vilt_session: { id: 'vse_sampleSampleSample000', title: 'Sample Session', starts_at: at } },
  };
  return { id: 'evt_sampleSampleSample000', event_type: type, timestamp: at, ...objects[type] };
}
