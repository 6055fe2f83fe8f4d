/**
 * The public surface of modules/organizations (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './admins.service';
export * from './organizations.module';
export * from './organizations.service';
export * from './admin-roles';
export * from './admin-roles.service';
export * from './admins-api.module';
export * from './organization-oauth';
