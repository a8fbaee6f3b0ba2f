import type { CatalogueEntry } from '../model.js';

/** Guide 7.6 and 5.4: a stale GitOps session token in the browser stops login. */
export const staleSessionCookie: CatalogueEntry = {
  id: 'stale-session-cookie',
  ref: '7.6',
  appliesTo: 'any-product',
  alsoRefs: ['5.4'],
  title: 'Cannot log in with a correct password',
  symptom: 'Login fails although the password is correct.',
  cause: "A stale GitOps controller session token is held in the browser's cookies.",
  signatures: {
    errors: [],
    phrases: [
      'cannot log in with a correct password',
      'cannot log in with the right password',
      'login fails with correct password',
      'correct password but cannot log in',
      'login redirects back to the login page',
      'works in incognito',
      'works in an incognito window',
      'works in a private window',
      'started another browser',
      'back to the login page',
      'back at the login page',
      'back to the login screen',
      'login redirect loop',
      'argocd.token',
      'clearing cookies resolved',
      'clearing the cookies fixed',
      'works after clearing cookies',
      'cookies not being cleared',
      'login works after deleting the cookie',
      // The cause in people's words: a cookie the server no longer honours, still held by the browser.
      'stale cookie',
      'stale session cookie',
      'stale token cookie',
      'invalid session cookie',
      'auth cookie expires',
      'expired auth cookie',
      // People's words for a cookie from before an upgrade that the new version still reads (tune: a
      // Grafana thread of the sixth round, where clearing the cookies is the way out).
      'old cookies are still used',
      'old cookie is still used',
      'cookies should be invalidated',
      'cookie should be invalidated',
    ],
    // Downstream: the GitOps controller rejects the old session's token before the new login counts (a
    // token signed by a previous install's key, or an expired one), and sends the browser back to the
    // login page. Sources: argoproj/argo-cd#3727 ("related to cookies not being properly cleared …
    // Clearing cookies for the site resolved the issue"), argoproj/argo-cd#12833 ("Failed to verify token:
    // token is expired" in a login redirect loop), argoproj/argo-cd#3552 ("Clearing the browser cache
    // solves the issue"), docs/FAQs/devtron-troubleshoot.md §6 (the argocd token of the previous session).
    downstream: [
      'Failed to verify token: token is expired',
      'token signature is invalid',
      'invalid session: token',
      // A token issued before the password was last changed, as the GitOps controller and the platform's
      // authenticator reject it (argo-cd util/session/sessionmanager.go "account password has changed since
      // token issued", "token is revoked, please re-login"; devtron-labs/authenticator
      // middleware/sessionmanager.go "Password for superuser has changed since token issued").
      'has changed since token issued',
      'token is revoked, please re-login',
      // Grafana's log line for a session cookie whose token it no longer holds (pkg/middleware, "Failed to
      // look up user based on cookie").
      'Failed to look up user based on cookie',
    ],
    // Not this remedy: a token too long for the cookies the controller may set (argo-cd util/http/http.go
    // "… requires N cookies but the max number of cookies is M": its administrator raises the limit).
    // A loop that a base path setting makes (Argo CD's server.basehref) sends the login
    // to the wrong address whatever the cookies hold (tune: argo-helm threads of the sixth round).
    // The guide's symptom is a login that fails although the password is correct: a loop the person ties to a wrong
    // password is the password's (tune: a sign-in loop "when my password is incorrect", the app showing no error).
    // The CLI keeps its token in its config file, not in a cookie (tune: argo-cd's CLI failing until the refresh token is
    // removed from ~/.argocd/config).
    excludes: ['.argocd/config', 'but the max number of cookies is', 'basehref', 'my password is incorrect', 'my password was incorrect', 'using the wrong password', 'used the wrong password'],
    context: [
      'cookie',
      'cookies',
      'argocd.token',
      'session',
      'browser',
      'incognito',
    ],
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    applied: ['cleared the cookies', 'cleared cookies', 'deleted the cookies', 'deleted cookies', 'cleared all cookies', 'delete all session cookies', 'deleted the argocd.token', 'removed the cookie', 'clearing cookies', 'clearing the cookies', 'deleting cookies', 'deleting the cookies', 'clearing all cookies', 'delete all my cookies', 'deleted all my cookies', 'delete my cookies', 'deleted my cookies', 'clear my cookies', 'cleared my cookies', 'clearing my cookies', 'clear browser data', 'cleared browser data', 'clearing browser data', 'clean my browser data', 'cleaned my browser data', 'cleared my browser data', 'clear browsing data', 'cleared browsing data', 'clearing browsing data', 'cleared my browsing data'],
  },
  detector: {
    kind: 'notObservable',
    where: 'browser',
    check: 'In the browser: delete the GitOps session token cookie (or all session cookies) and log in again.',
  },
  stages: [
    {
      id: 'clear-cookie',
      title: 'Delete the stale session cookie',
      steps: [
        {
          kind: 'manual',
          does: 'Delete the token cookie in the browser',
          risk: 'read-only',
          items: ["In the browser, delete the platform site's token cookie (or use Delete All Session Cookies).", 'Log in again with the same password.'],
        },
      ],
    },
  ],
};
