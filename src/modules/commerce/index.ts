/**
 * The public surface of modules/commerce (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './commerce-limits.module';
export * from './commerce.module';
export * from './free-purchases';
export * from './offers.presenter';
export * from './offers';
export * from './purchases.presenter';
export * from './purchases';
export * from './update-sent';
export * from './purchase-grants';
