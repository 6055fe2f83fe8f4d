const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The password-reset message: plain text and HTML, the link verbatim in both. */
export function passwordResetMail(p: { firstName: string; domainName: string; resetUrl: string }) {
  const hello = p.firstName ? `Hello ${p.firstName},` : 'Hello,';
  const subject = `Reset your password for ${p.domainName}`;
  const text = [
    hello,
    '',
    `Someone asked to reset the password of your account on ${p.domainName}. To choose a new password, open this link:`,
    '',
    p.resetUrl,
    '',
    'The link works once and expires soon. If you did not ask for this, ignore this message: your password stays as it is.',
  ].join('\n');
  const html = `<p>${escapeHtml(hello)}</p>
<p>Someone asked to reset the password of your account on ${escapeHtml(p.domainName)}. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(p.resetUrl)}">${escapeHtml(p.resetUrl)}</a></p>
<p>The link works once and expires soon. If you did not ask for this, ignore this message: your password stays as it is.</p>`;
  return { subject, text, html };
}
