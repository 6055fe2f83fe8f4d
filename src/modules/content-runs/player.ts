import { ERROR_STRINGS, ScormVersion } from './scorm-model';

/**
 * The project's SCORM adapter (CONVENTIONS §18): the script the player page loads before the
 * content frame, which defines `window.API` (SCORM 1.2) or `window.API_1484_11` (SCORM 2004). Each
 * call goes to the session's runtime endpoint (`runtime/<call>` beside the player page) with a
 * synchronous request, as the standards' API is synchronous; the server keeps the data model and
 * answers the value and error code. A call made while the page is being dismissed (browsers refuse
 * synchronous requests then) is sent with `navigator.sendBeacon` and answered "true".
 */
export function adapterScript(version: ScormVersion): string {
  const strings = JSON.stringify(ERROR_STRINGS[version]);
  return `(function () {
  'use strict';
  var base = new URL('runtime/', document.baseURI).href;
  var strings = ${strings};
  var last = 0, diag = '';
  function post(call, body, fallback) {
    var data = JSON.stringify(body || {});
    try {
      var x = new XMLHttpRequest();
      x.open('POST', base + call, false);
      x.setRequestHeader('Content-Type', 'application/json');
      x.send(data);
      if (x.status !== 200) { last = 101; diag = 'HTTP ' + x.status; return fallback; }
      var r = JSON.parse(x.responseText);
      last = r.error; diag = r.diagnostic || '';
      return r.value;
    } catch (e) {
      if (call !== 'get' && navigator.sendBeacon && navigator.sendBeacon(base + call, new Blob([data], { type: 'text/plain' }))) { last = 0; diag = ''; return 'true'; }
      last = 101; diag = String(e && e.message || e);
      return fallback;
    }
  }
  function init(a) { return post('initialize', { argument: a === undefined ? '' : String(a) }, 'false'); }
  function term(a) { return post('terminate', { argument: a === undefined ? '' : String(a) }, 'false'); }
  function get(e) { return post('get', { element: String(e) }, ''); }
  function set(e, v) { return post('set', { element: String(e), value: String(v) }, 'false'); }
  function commit(a) { return post('commit', { argument: a === undefined ? '' : String(a) }, 'false'); }
  function lastError() { return String(last); }
  function errorString(c) { return strings[String(c)] || ''; }
  function diagnostic(c) { return c === undefined || c === '' || String(c) === String(last) ? (diag || strings[String(last)] || '') : (strings[String(c)] || ''); }
  ${
    version === '1.2'
      ? `window.API = { LMSInitialize: init, LMSFinish: term, LMSGetValue: get, LMSSetValue: set, LMSCommit: commit, LMSGetLastError: lastError, LMSGetErrorString: errorString, LMSGetDiagnostic: diagnostic };`
      : `window.API_1484_11 = { version: '1.0', Initialize: init, Terminate: term, GetValue: get, SetValue: set, Commit: commit, GetLastError: lastError, GetErrorString: errorString, GetDiagnostic: diagnostic };`
  }
})();
`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The player page: the adapter, then the package's launch file in a frame filling the window. */
export function playerPage(title: string, contentSrc: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
<script src="adapter.js"></script>
</head><body><iframe id="content" title="${escapeHtml(title)}" src="${escapeHtml(contentSrc)}" allow="fullscreen; autoplay"></iframe></body></html>
`;
}

/** The content frame's `src`, relative to the player page: `c/<launch path, escaped per segment>?<parameters>`. */
export function contentSrc(launchPath: string, parameters: string | null): string {
  const path = launchPath.split('/').map(encodeURIComponent).join('/');
  return `c/${path}${parameters ? `?${parameters}` : ''}`;
}

/** CSP of the player page: its own script and frame only. */
export const PLAYER_CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";
/**
 * CSP of the package's files: a sandbox that keeps the same origin (the content must reach the
 * adapter in its parent frame) and scripts, forms, pop-ups and modals, but not navigating the top
 * window; framed by our player only.
 */
export const CONTENT_CSP = "sandbox allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads; frame-ancestors 'self'";
