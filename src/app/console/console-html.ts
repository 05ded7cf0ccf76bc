import type { ServerResponse } from 'node:http';
import { canReadAudit, type MemberRole } from '../../core/model/member';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML, in elements and in quoted attributes. */
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The console's pages, in the order of its navigation. */
export const CONSOLE_PAGES = [
  { path: '/console', label: 'Live runs' },
  { path: '/console/approvals', label: 'Approvals' },
  { path: '/console/usage', label: 'Usage and budgets' },
  { path: '/console/agents', label: 'Agents and spaces' },
  { path: '/console/audit', label: 'Audit log' },
] as const;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
a{color:#0b57d0}a:focus,button:focus{outline:3px solid #b45309;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px}
header{background:#1e293b;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header a{color:#fff}header nav ul{display:flex;gap:16px;list-style:none;margin:0;padding:0}
header a[aria-current=page]{font-weight:bold;text-decoration:underline}
main{padding:16px;max-width:1100px}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ccc;padding:6px;text-align:left;vertical-align:top}
button{font:inherit;padding:4px 12px;border:1px solid #334155;border-radius:4px;background:#f1f5f9;color:#111;cursor:pointer}
button.danger{background:#fee2e2}.note{color:#374151}.status{font-weight:bold}
.signin a{display:inline-block;margin:8px 8px 8px 0;padding:8px 16px;border:1px solid #334155;border-radius:4px}
form.inline{display:inline}`;

/** O5: one console page: navigation for a signed-in viewer, the body, the light script. */
export function layout(
  page: { title: string; path: string; body: string },
  viewer: { nickname: string; role: string; workspace: string; csrf: string } | null,
): string {
  const nav =
    viewer === null
      ? ''
      : `<nav aria-label="Console"><ul>${CONSOLE_PAGES.filter(
          // O4: the audit log's page is in the navigation of the roles that may read it.
          (p) => p.path !== '/console/audit' || canReadAudit(viewer.role as MemberRole),
        )
          .map(
            (p) =>
              `<li><a href="${p.path}"${p.path === page.path ? ' aria-current="page"' : ''}>${esc(p.label)}</a></li>`,
          )
          .join('')}</ul></nav>
<p>@${esc(viewer.nickname)} (${esc(viewer.role)}) in ${esc(viewer.workspace)}</p>
<form class="inline" method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="${esc(viewer.csrf)}"><button type="submit">Sign out</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)} · Summon console</title><style>${STYLE}</style></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><strong>Summon console</strong>${nav}</header>
<main id="main" tabindex="-1"><h1>${esc(page.title)}</h1>${page.body}</main>
${viewer === null ? '' : '<script src="/console/console.js" defer></script>'}</body></html>`;
}

/** Sends a page with the console's headers: never cached, no referrer (addresses may hold codes), no framing. */
export function sendHtml(
  response: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string | string[]> = {},
): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy':
      "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
    ...headers,
  });
  response.end(html);
}

/** A page with one sentence: a refusal or a notice, and where to go on. */
export function sentencePage(title: string, sentence: string, signedIn: boolean): string {
  const next = signedIn
    ? '<p><a href="/console">Back to the console</a></p>'
    : '<p><a href="/console">Sign in</a></p>';
  return layout({ title, path: '', body: `<p role="alert">${esc(sentence)}</p>${next}` }, null);
}

/** A hidden CSRF field for a form of the viewer's session. */
export const csrfField = (csrf: string): string => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;
