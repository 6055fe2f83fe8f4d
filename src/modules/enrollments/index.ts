/**
 * The public surface of modules/enrollments (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './dto/program-enrollment.v1.dto';
export * from './enrollment-progress';
export * from './enrollment.entity';
export * from './enrollments.module';
export * from './enrollments.service';
export * from './program-enrollments.presenter';
export * from './program-enrollments';
export * from './purchase-enrollments';
export * from './course-progress-writes';
export * from './enrollment-ratings';
