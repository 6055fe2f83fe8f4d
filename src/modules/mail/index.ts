/**
 * The public surface of modules/mail (docs/decisions/module-graph.md): another module imports
 * these files, and only these (module-graph.spec.ts fails on an import of any other file of this
 * folder from outside it). A file joins the surface by a line here, reviewed as an API change.
 */
export * from './mail.module';
export * from './mailer';
export * from './password-reset-mails';
export * from './password-reset-token';
export * from './sent-once';
