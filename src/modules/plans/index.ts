/**
 * The public surface of modules/plans (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './dto/plan-write.dto';
export * from './live-programs';
export * from './plans-admin.service';
export * from './plans.module';
export * from './plans.presenter';
export * from './program-admin-service';
export * from './program-admin';
export * from './program-enrollment-rows';
export * from './program-writes';
