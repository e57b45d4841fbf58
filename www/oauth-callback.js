// The OAuth callback page (the redirect_uri). It never interprets the answer itself: it hands
// the query string (code, state, iss or error) to the page that started the login, which checks
// state and iss in the client core.
//  - Popup login: posts it to the opener with the strict target origin location.origin (only a
//    page of our own origin can receive it), and on a same-origin BroadcastChannel in case the
//    authorization server's Cross-Origin-Opener-Policy cut the popup off from its opener. A
//    popup cut off has no opener: it is told on the channel what became of the answer, and
//    says so (logged in, or why not).
//  - Full-page login: leaves it in this tab's sessionStorage and returns to the page that left
//    (only if that page is on our origin).
// Anything shown here is set with textContent: server-supplied text is never HTML.
(() => {
  'use strict';
  const MESSAGE_TYPE = 'mcp-oauth-callback';
  const CHANNEL = 'mcp-oauth';
  const PENDING_KEY = 'mcp-oauth-pending';
  const CALLBACK_KEY = 'mcp-oauth-callback';
  const TAKEN_TYPE = 'mcp-oauth-login-taken';
  const ENDED_TYPE = 'mcp-oauth-login-ended';
  // The page waiting for the answer takes it at once; the login may then take a few
  // requests (each with a 30 s deadline in the client).
  const TAKEN_WAIT_MS = 3000;
  const ENDED_WAIT_MS = 120000;
  const query = location.search;
  const params = new URLSearchParams(query);
  const status = document.getElementById('status');
  const say = (text) => { status.textContent = text; };
  const message = { type: MESSAGE_TYPE, query };
  // Keep the code out of the history and of any later Referer.
  try { history.replaceState(null, '', location.pathname); } catch (_) { /* not fatal */ }
  const broadcast = () => {
    try { const c = new BroadcastChannel(CHANNEL); c.postMessage(message); c.close(); } catch (_) { /* old browser */ }
  };
  const error = params.get('error');
  if (!params.has('code') && !params.has('state') && !error) {
    say('This address carries no login answer.');
    return;
  }
  const outcome = error
    ? `The login did not complete: ${error}${params.get('error_description') ? ` (${params.get('error_description')})` : ''}`
    : 'Logged in. You can close this window.';

  if (window.opener && window.opener !== window) {
    try { window.opener.postMessage(message, location.origin); } catch (_) { /* opener gone */ }
    broadcast();
    say(outcome);
    window.close();
    return;
  }
  let pending = null;
  try { pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) || 'null'); } catch (_) { pending = null; }
  if (pending && typeof pending.return_to === 'string') {
    let target = null;
    try { target = new URL(pending.return_to); } catch (_) { target = null; }
    if (target && target.origin === location.origin) {
      sessionStorage.setItem(CALLBACK_KEY, query);
      say('Returning to the app…');
      location.replace(target.href);
      return;
    }
  }
  // No opener and no full-page login of this tab: a popup the authorization server's
  // Cross-Origin-Opener-Policy cut off from its opener, or an answer for another tab. The page
  // waiting for this answer says on the channel that it took it, then how the login ended.
  const unclaimed = error
    ? outcome
    : 'No login was waiting in this tab. If another window started it, it has been told; you can close this one.';
  let channel = null;
  try { channel = new BroadcastChannel(CHANNEL); } catch (_) { channel = null; }
  if (!channel) {
    say(unclaimed);
    return;
  }
  const state = params.get('state');
  let timer = 0;
  const end = (text) => { clearTimeout(timer); channel.close(); say(text); };
  const unlessTold = (ms, text) => { clearTimeout(timer); timer = setTimeout(() => end(text), ms); };
  channel.onmessage = (event) => {
    const word = event.data;
    if (!word || typeof word !== 'object' || state === null || word.state !== state) return;
    if (word.type === TAKEN_TYPE) {
      say('Finishing the login in the page that started it…');
      unlessTold(ENDED_WAIT_MS, 'The page that started the login took its answer but did not say how the login ended: look there. You can close this window.');
    } else if (word.type === ENDED_TYPE) {
      end(typeof word.error === 'string' ? `The login did not complete: ${word.error}` : 'Logged in. You can close this window.');
    }
  };
  say('Handing the answer to the page that started the login…');
  unlessTold(TAKEN_WAIT_MS, unclaimed);
  channel.postMessage(message);
})();
