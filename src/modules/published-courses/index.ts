/**
 * The public surface of modules/published-courses (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './dto/published-course.v2.dto';
export * from './published-courses.module';
export * from './published-courses.presenter';
export * from './published-courses.service';
export * from './published-courses.store';
export * from './dto/published-course.dto';
export * from './group-visibility-writes';
