/**
 * The public surface of modules/auth (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './organization-oauth.module';
export * from './clients.service';
export * from './oauth.entities';
export * from './oauth.module';
export * from './retention';
