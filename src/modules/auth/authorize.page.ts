import { describeScope } from '../../core/auth/scopes';
import { escapeHtml, layout } from '../../core/http/html-page';

/** HTML of the authorization endpoint's sign-in + consent form (the page kit and the error page: core/http/html-page.ts). Every value is escaped. */

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
