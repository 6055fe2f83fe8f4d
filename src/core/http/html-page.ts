import { createHash } from 'node:crypto';

/** The HTML pages this server answers itself (the authorization endpoint's, the SSO callback's): one stylesheet, a strict CSP, the error page. Every value is escaped. */

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:2rem}
h1{font-size:1.3rem;margin:0 0 1rem}
p{line-height:1.45}
ul{padding-left:1.2rem;margin:.3rem 0 .6rem}
li{margin:.15rem 0;overflow-wrap:anywhere}
.scopes{border:1px solid #e1e4ea;border-radius:6px;padding:.2rem .8rem;margin:.6rem 0}
details{border-bottom:1px solid #eef0f3;padding:.35rem 0}
details:last-child{border-bottom:0}
summary{cursor:pointer;font-weight:600}
summary .count{font-weight:400;color:#555}
code{font-size:.85em;color:#555}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #b8bec9;border-radius:4px;font-size:1rem}
.error{background:#fdecea;color:#8a1c12;padding:.6rem .8rem;border-radius:4px}
.buttons{display:flex;gap:.6rem;margin-top:1.2rem}
button{flex:1;padding:.6rem;font-size:1rem;border-radius:4px;border:1px solid #2456c7;cursor:pointer}
button[value=approve]{background:#2456c7;color:#fff}
button[value=deny]{background:#fff;color:#2456c7}
.note{font-size:.85rem;color:#555}
`;

/** The stylesheet is inline and allowed by its hash, so the CSP needs no 'unsafe-inline'. */
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Strict CSP: nothing loads but our own inline style; the form may only post here (and redirect to `redirectOrigin`). */
export function contentSecurityPolicy(redirectOrigin?: string): string {
  // Chrome applies form-action to the redirect that follows a form post, so the client's origin is allowed too.
  const formAction = redirectOrigin ? `'self' ${redirectOrigin}` : `'self'`;
  return `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error">${escapeHtml(message)}</p>
<p class="note">You can close this window and return to the application.</p>`,
  );
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
