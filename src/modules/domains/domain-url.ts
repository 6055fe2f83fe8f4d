/** The learner-facing base URL of a domain. */
export const domainBase = (domainName: string) => `https://${domainName}`;
