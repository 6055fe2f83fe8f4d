import type { EntityManager } from 'typeorm';

/** One step of a person's erasure on a table another module owns, run in the anonymizing transaction. */
export type ErasureStep = (m: EntityManager, organizationId: string, userId: string) => Promise<void>;

/**
 * The erasure steps of the modules that keep a person's data outside `users` (course-rating
 * feedback, domain memberships and signup-field values, lesson-progress free text), each the
 * owner's function. StudentsService.anonymize runs them in this order, then erasePersonalData.
 * Declared here and provided by the root (src/person-erasure.module.ts), so students, below those
 * modules in the module graph, imports none of them (docs/decisions/module-graph.md).
 */
export abstract class PersonErasureSteps {
  abstract readonly steps: readonly ErasureStep[];
}
