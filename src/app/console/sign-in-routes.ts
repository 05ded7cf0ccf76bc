import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../core/errors';
import {
  consoleCookie,
  randomToken,
  readCookies,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  sameText,
} from './console-cookies';
import { type ConsoleDeps, publicBase, secureCookies } from './console-deps';
import { layout, sendHtml, sentencePage } from './console-html';
import { memberOf } from './sign-in-member';

/** O5: a sign-in attempt may take this long between leaving for the platform and coming back. */
const ATTEMPT_TTL_MS = 10 * 60 * 1000;

interface Attempt {
  platform: 'slack' | 'discord';
  state: string;
  nonce: string;
  expiresAt: number;
}

const LABELS = { slack: 'Slack', discord: 'Discord' } as const;

/** O5: the page an unsigned visitor sees: plain links to the configured sign-ins (no script needed). */
export function signInPage(deps: ConsoleDeps): string {
  const links = [...deps.signIns.keys()]
    .map((p) => `<a href="/console/auth/${p}">Sign in with ${LABELS[p]}</a>`)
    .join('');
  const body =
    links === ''
      ? '<p>No sign-in is set up. An operator sets <code>SLACK_CLIENT_ID</code> and <code>SLACK_CLIENT_SECRET</code> (or Discord’s), or runs <code>summon console link</code> for a one-time link.</p>'
      : `<p>Sign in with the chat account that is a member of your Summon workspace.</p><p class="signin">${links}</p>`;
  return layout({ title: 'Sign in', path: '/console', body }, null);
}

/**
 * O5: `/console/auth/<platform>` sends the person to the platform with a fresh state and nonce
 * (kept signed in a short cookie); `/console/auth/<platform>/callback` checks them, has the
 * platform vouch for the account, finds the member (P8) and begins a session. False for any
 * other path.
 */
export function handleSignIn(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
  path: string,
): boolean {
  const match = /^\/console\/auth\/(slack|discord)(\/callback)?$/.exec(path);
  if (match === null) return false;
  const platform = match[1] as 'slack' | 'discord';
  const signIn = deps.signIns.get(platform);
  if (signIn === undefined) {
    sendHtml(
      response,
      404,
      sentencePage('Not set up', `Sign in with ${LABELS[platform]} is not set up on this Summon.`, false),
    );
    return true;
  }
  const redirectUri = `${publicBase(deps, request.headers.host)}/console/auth/${platform}/callback`;
  if (match[2] === undefined) {
    const attempt: Attempt = {
      platform,
      state: randomToken(),
      nonce: randomToken(),
      expiresAt: deps.clock.now().getTime() + ATTEMPT_TTL_MS,
    };
    const cookie = deps.signer.sign(Buffer.from(JSON.stringify(attempt)).toString('base64url'));
    response.writeHead(302, {
      location: signIn.authorizeUrl({ state: attempt.state, nonce: attempt.nonce, redirectUri }),
      'set-cookie': consoleCookie(SIGN_IN_COOKIE, cookie, {
        maxAgeSeconds: ATTEMPT_TTL_MS / 1000,
        secure: secureCookies(deps),
      }),
      'cache-control': 'no-store',
    });
    response.end();
    return true;
  }
  void completeSignIn(request, response, deps, platform, redirectUri);
  return true;
}

async function completeSignIn(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
  platform: 'slack' | 'discord',
  redirectUri: string,
): Promise<void> {
  // The attempt's cookie is spent whatever happens: a callback address replayed finds none.
  const cleared = consoleCookie(SIGN_IN_COOKIE, '', { maxAgeSeconds: 0, secure: secureCookies(deps) });
  try {
    const query = new URL(request.url ?? '/', 'http://summon.invalid').searchParams;
    const attempt = attemptOf(deps, readCookies(request).get(SIGN_IN_COOKIE));
    const state = query.get('state') ?? '';
    if (attempt === null || attempt.platform !== platform || !sameText(state, attempt.state))
      throw new AppError(
        'This sign-in was not started here, or was already used (its state does not match). Start again.',
        'forbidden',
      );
    if (attempt.expiresAt <= deps.clock.now().getTime())
      throw new AppError('This sign-in took too long. Start again.', 'forbidden');
    const code = query.get('code');
    if (code === null || code === '')
      throw new AppError(
        `${LABELS[platform]} did not authorize the sign-in (${query.get('error') ?? 'no code'}).`,
        'forbidden',
      );
    const account = await deps.signIns.get(platform)?.complete({ code, nonce: attempt.nonce, redirectUri });
    if (account === undefined) throw new AppError('This sign-in is not set up.', 'forbidden');
    const member = await memberOf(deps.store, account);
    const session = await deps.sessions.begin(member, platform);
    response.writeHead(303, {
      location: '/console',
      'set-cookie': [cleared, sessionCookie(deps, session.token, session.expiresAt)],
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    response.end();
  } catch (error) {
    const known = error instanceof AppError;
    // Logged without the address: it holds the code and the state.
    deps.logger.warn(
      { platform, reason: error instanceof Error ? error.message : String(error) },
      'O5: a console sign-in was refused',
    );
    const sentence = known ? error.message : 'Summon could not complete this sign-in.';
    sendHtml(response, known ? 403 : 500, sentencePage('Not signed in', sentence, false), {
      'set-cookie': cleared,
    });
  }
}

function attemptOf(deps: ConsoleDeps, cookie: string | undefined): Attempt | null {
  const value = deps.signer.verify(cookie);
  if (value === null) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Attempt;
    return typeof parsed.state === 'string' && typeof parsed.nonce === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** O5: the session's cookie, signed, until the session expires. */
export function sessionCookie(deps: ConsoleDeps, token: string, expiresAt: Date): string {
  const maxAgeSeconds = (expiresAt.getTime() - deps.clock.now().getTime()) / 1000;
  return consoleCookie(SESSION_COOKIE, deps.signer.sign(token), {
    maxAgeSeconds,
    secure: secureCookies(deps),
  });
}

/** O5: `/console/link?token=…` (from `summon console link`): used once, it begins a session. */
export async function redeemLink(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
): Promise<void> {
  const token = new URL(request.url ?? '/', 'http://summon.invalid').searchParams.get('token') ?? '';
  const member = token === '' ? null : await deps.sessions.redeemLink(token);
  if (member === null) {
    deps.logger.warn({}, 'O5: a console sign-in link was refused (unknown, used or expired)');
    sendHtml(
      response,
      403,
      sentencePage(
        'Not signed in',
        'This sign-in link is unknown, used or expired: run `summon console link` again.',
        false,
      ),
    );
    return;
  }
  const session = await deps.sessions.begin(member, 'link');
  response.writeHead(303, {
    location: '/console',
    'set-cookie': sessionCookie(deps, session.token, session.expiresAt),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  response.end();
}
