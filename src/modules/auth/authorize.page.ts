import { createHash } from 'node:crypto';
import { describeScope } from '../../core/auth/scopes';

/** HTML of the authorization endpoint: the sign-in + consent form and the error page. Every value is escaped. */

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

function layout(title: string, body: string): string {
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

export interface ConsentView {
  clientName: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  /** the authorization request, echoed as hidden fields */
  hidden: Record<string, string | undefined>;
  csrf: string;
  email?: string;
  error?: string;
  /** signed in through the organization's identity provider (modules/sso): approve or deny, no password */
  ssoEmail?: string;
  /** the organization's SSO sign-in link, when the application belongs to an organization that has one */
  ssoUrl?: string;
}

export function consentPage(v: ConsentView): string {
  const hidden = Object.entries({ ...v.hidden, csrf_token: v.csrf })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  // grouped by area (content, learners, commerce...), each a <details> with its count: every
  // permission is one click away and the page says how many there are in all
  const areas = new Map<string, string[]>();
  for (const s of v.scopes) {
    const { category } = describeScope(s);
    areas.set(category, [...(areas.get(category) ?? []), s]);
  }
  const open = v.scopes.length <= 12 ? ' open' : '';
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const scopes = [...areas.entries()]
    .sort(([a], [b]) => (a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b)))
    .map(
      ([area, list]) => `<details${open}><summary>${escapeHtml(area[0].toUpperCase() + area.slice(1))} <span class="count">(${list.length})</span></summary><ul>
${list.map((s) => `<li>${escapeHtml(describeScope(s).description)} <code>${escapeHtml(s)}</code></li>`).join('\n')}
</ul></details>`,
    )
    .join('\n');
  return layout(
    `Authorize ${v.clientName}`,
    `<h1>Authorize <strong>${escapeHtml(v.clientName)}</strong></h1>
${v.error ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : ''}
<p>The application <strong>${escapeHtml(v.clientName)}</strong> (<code>${escapeHtml(v.clientId)}</code>) asks for access to your organization with <strong>${plural(v.scopes.length, 'permission')}</strong> in ${plural(areas.size, 'area')}:</p>
<div class="scopes">
${scopes}
</div>
<p class="note">Approving sends you back to <code>${escapeHtml(v.redirectUri)}</code>.</p>
<form method="post" action="authorize" autocomplete="on">
${hidden}
${
  v.ssoEmail
    ? `<p>Signed in as <strong>${escapeHtml(v.ssoEmail)}</strong> through your organization's identity provider.</p>
<input type="hidden" name="sso" value="1">
<div class="buttons">
<button type="submit" name="action" value="approve">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</div>`
    : `<label for="email">Administrator email</label>
<input id="email" name="email" type="email" required autocomplete="username" value="${escapeHtml(v.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<div class="buttons">
<button type="submit" name="action" value="approve">Sign in and allow</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</div>
<div class="buttons">
<button type="submit" name="action" value="sso" formnovalidate>Sign in with your identity provider</button>
</div>
${v.ssoUrl ? `<p class="note"><a id="sso-link" href="${escapeHtml(v.ssoUrl)}">Sign in with your identity provider</a></p>` : `<p class="note">Single sign-on: enter your email and choose "Sign in with your identity provider".</p>`}`
}
</form>`,
  );
}
