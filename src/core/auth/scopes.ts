/**
 * The scope catalog, served from constants: every codename of the published authorization metadata
 * plus students:deactivate and students:anonymize.
 */
export const SCOPE_CODENAMES = [
  'courses:read', 'courses:write', 'lessons:read', 'lessons:write', 'assets:read', 'assets:write',
  'quizzes:read', 'quizzes:write', 'question-banks:read', 'question-banks:write', 'web-packages:read',
  'web-packages:write', 'content-items:read', 'content-items:write', 'labels:read', 'labels:write',
  'instructors:read', 'instructors:write', 'course-families:read', 'course-families:write', 'domains:read',
  'domains:write', 'published-courses:read', 'published-courses:write', 'catalog-pages:read',
  'catalog-pages:write', 'paths:read', 'paths:write', 'plans:read', 'plans:write', 'tags:read', 'tags:write',
  'themes:read', 'themes:write', 'enrollments:read', 'enrollments:write', 'students:read', 'students:write',
  'students:manage-password', 'students:deactivate', 'students:anonymize', 'signup-fields:read',
  'signup-fields:write', 'student-groups:read', 'student-groups:write', 'certificates:read',
  'certificates:write', 'email-templates:read', 'email-templates:write', 'language-packs:read',
  'language-packs:write', 'admin-users:read', 'admin-users:write', 'roles:read', 'roles:write',
  'analytics:read', 'audit:read', 'promo-codes:read', 'promo-codes:write', 'training-credits:read',
  'training-credits:write', 'licensing:read', 'licensing:write', 'offers:read', 'offers:write',
  'orders:read', 'access-codes:read', 'access-codes:write', 'vilt-sessions:read', 'vilt-sessions:write',
  'scheduled-reports:read', 'scheduled-reports:write', 'data-export:read', 'data-export:write',
  'workflows:read', 'workflows:write', 'syndication:read', 'syndication:write', 'announcements:read',
  'announcements:write', 'action-items:read', 'action-items:write', 'organization:read',
  'organization:write', 'webhooks:read', 'webhooks:write', 'integrations:read', 'integrations:write',
  'clients:read', 'clients:write', 'scim:read', 'scim:write', 'lrs:write',
] as const;

export type ScopeCodename = (typeof SCOPE_CODENAMES)[number];
export const ALL_SCOPES: ReadonlySet<string> = new Set(SCOPE_CODENAMES);

const CATEGORY: Record<string, string> = {
  courses: 'content', lessons: 'content', assets: 'content', quizzes: 'content', 'question-banks': 'content',
  'web-packages': 'content', 'content-items': 'content', labels: 'content', tags: 'content',
  instructors: 'training', 'vilt-sessions': 'training', 'course-families': 'catalog', domains: 'catalog',
  'published-courses': 'catalog', 'catalog-pages': 'catalog', paths: 'catalog', plans: 'catalog',
  themes: 'branding', 'email-templates': 'branding', 'language-packs': 'branding', enrollments: 'learners',
  students: 'learners', 'signup-fields': 'learners', 'student-groups': 'learners', certificates: 'learners',
  'access-codes': 'learners', 'admin-users': 'administration', roles: 'administration', audit: 'administration',
  organization: 'administration', clients: 'administration', integrations: 'administration',
  analytics: 'reporting', 'scheduled-reports': 'reporting', 'data-export': 'reporting',
  'promo-codes': 'commerce', 'training-credits': 'commerce', licensing: 'commerce', offers: 'commerce',
  orders: 'commerce', workflows: 'automation', webhooks: 'automation', syndication: 'automation',
  announcements: 'communication', 'action-items': 'communication', scim: 'administration', lrs: 'learners',
};

const SPECIAL: Record<string, string> = {
  'students:manage-password': 'Send password-reset mails to students and set their passwords',
  'students:deactivate': 'Deactivate students',
  'students:anonymize': 'Permanently erase the personal data of students',
  'scim:read': 'Read users and groups through SCIM 2.0 (/scim/v2/)',
  'scim:write': 'Provision users and groups through SCIM 2.0 (/scim/v2/)',
};

export function describeScope(codename: string): { codename: string; description: string; category: string } {
  const [resource, action] = codename.split(':');
  const noun = resource.replace(/-/g, ' ');
  const description = SPECIAL[codename] ?? (action === 'read' ? `Read ${noun}` : `Create, update and delete ${noun}`);
  return { codename, description, category: CATEGORY[resource] ?? 'other' };
}

const byResource = (...resources: string[]) => SCOPE_CODENAMES.filter((s) => resources.includes(s.split(':')[0]));

export const SCOPE_PRESETS: Record<string, string[]> = {
  'read-only': SCOPE_CODENAMES.filter((s) => s.endsWith(':read')),
  'full-access': [...SCOPE_CODENAMES],
  'student-management': [
    ...byResource('students', 'student-groups', 'enrollments', 'signup-fields', 'access-codes'),
    'certificates:read',
  ],
  'content-management': byResource(
    'courses', 'lessons', 'assets', 'quizzes', 'question-banks', 'web-packages', 'content-items', 'labels',
    'tags', 'course-families', 'published-courses', 'paths', 'catalog-pages',
  ),
};
