/**
 * The public surface of modules/analytics (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './analytics.module';
export * from './rating-writes';
export * from './enrollment-ratings.module';
