/**
 * The public surface of modules/groups (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './auto-assignment';
export * from './dto/group-category.dto';
export * from './dto/membership.dto';
export * from './group-categories.service';
export * from './groups.module';
export * from './groups.presenter';
export * from './groups.v1.presenter';
export * from './group-visibility-writes.module';
export * from './groups.provisioning';
export * from './managed-group';
