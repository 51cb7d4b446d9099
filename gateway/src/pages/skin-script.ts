/*
 * The skin's one script, served from the wiki's own origin (CSP `script-src 'self'`, no inline
 * script): progressive enhancement of pages that work without it, as MediaWiki's
 * mediawiki.searchSuggest, mediawiki.action.view.postEdit, mediawiki.page.watch.ajax and the
 * logout link of mediawiki.page.ready do. Each part looks for its element and does nothing when
 * the page has none; every request goes to the wiki's own action API (`data-api` of the search
 * form) with the session cookie, and writes carry the session's token from meta=tokens.
 *
 * Plain ES2017 for the browser, kept as text: it never runs in Node (a test compiles it).
 */
import crypto from 'node:crypto';
import { SCRIPT_PATH } from '../config.js';

export const SKIN_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('searchform');
  var api = form && form.getAttribute('data-api');
  var articlePath = form && form.getAttribute('data-article-path');
  if (!api || !articlePath) return;

  function query(params) {
    var q = new URLSearchParams(params);
    q.set('format', 'json');
    q.set('formatversion', '2');
    return q;
  }
  function get(params) {
    return fetch(api + '?' + query(params), { credentials: 'same-origin' }).then(function (r) { return r.json(); });
  }
  function post(params) {
    return fetch(api, { method: 'POST', credentials: 'same-origin', body: query(params) }).then(function (r) { return r.json(); });
  }
  function token(type) {
    return get({ action: 'query', meta: 'tokens', type: type }).then(function (r) { return r.query.tokens[type + 'token']; });
  }
  function pageUrl(title) {
    return articlePath.replace('$1', encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':'));
  }

  // A message at the top of the content (mw.notify): replaced by the next one, gone after a while.
  var notifyTimer = 0;
  function notify(text) {
    var box = document.getElementById('mw-notification');
    if (!box) {
      box = document.createElement('div');
      box.id = 'mw-notification';
      box.className = 'mw-notification';
      box.setAttribute('role', 'status');
      box.addEventListener('click', function () { box.hidden = true; });
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(notifyTimer);
    notifyTimer = setTimeout(function () { box.hidden = true; }, 5000);
  }

  // Search suggestions (action=opensearch) under the search box; arrows choose, Enter opens.
  var input = document.getElementById('searchInput');
  if (input) {
    var list = document.createElement('ul');
    list.id = 'searchSuggestions';
    list.className = 'suggestions';
    list.setAttribute('role', 'listbox');
    list.hidden = true;
    form.appendChild(list);
    input.setAttribute('autocomplete', 'off');
    input.setAttribute('aria-controls', list.id);
    var asked = '';
    var timer = 0;
    var chosen = -1;
    var close = function () { list.hidden = true; chosen = -1; };
    var mark = function () {
      Array.prototype.forEach.call(list.children, function (li, i) { li.className = i === chosen ? 'suggestion selected' : 'suggestion'; });
    };
    input.addEventListener('input', function () {
      clearTimeout(timer);
      var text = input.value;
      if (!text.trim()) return close();
      timer = setTimeout(function () {
        asked = text;
        get({ action: 'opensearch', search: text, namespace: '0', limit: '10', suggest: '1' }).then(function (r) {
          if (asked !== text || input.value !== text) return;
          list.textContent = '';
          (r[1] || []).forEach(function (title) {
            var li = document.createElement('li');
            li.className = 'suggestion';
            li.setAttribute('role', 'option');
            var a = document.createElement('a');
            a.href = pageUrl(title);
            a.textContent = title;
            li.appendChild(a);
            list.appendChild(li);
          });
          chosen = -1;
          list.hidden = list.children.length === 0;
        }, close);
      }, 120);
    });
    input.addEventListener('keydown', function (e) {
      if (list.hidden) return;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        var n = list.children.length;
        chosen = e.key === 'ArrowDown' ? (chosen + 1) % n : (chosen + n - 1) % n;
        mark();
        input.value = list.children[chosen].textContent;
        e.preventDefault();
      } else if (e.key === 'Enter' && chosen >= 0) {
        location.href = list.children[chosen].firstChild.href;
        e.preventDefault();
      } else if (e.key === 'Escape') {
        close();
      }
    });
    input.addEventListener('blur', function () { setTimeout(close, 200); });
  }

  // "Your edit was saved." (the post-edit notice the server marks after a save).
  var saved = document.getElementById('mw-postedit-notice');
  if (saved) notify(saved.textContent);

  // Watch and unwatch through the API, without the confirmation page.
  document.addEventListener('click', function (e) {
    var link = e.target.closest && e.target.closest('#ca-watch a, #ca-unwatch a');
    if (!link) return;
    var tab = link.parentNode;
    var unwatch = tab.id === 'ca-unwatch';
    var title = new URL(link.href).searchParams.get('title');
    if (!title) return;
    e.preventDefault();
    token('watch').then(function (t) {
      var p = { action: 'watch', titles: title, token: t };
      if (unwatch) p.unwatch = '1';
      return post(p);
    }).then(function (r) {
      if (r.error) throw new Error(r.error.info);
      var name = r.watch && r.watch[0] ? r.watch[0].title : title;
      tab.id = unwatch ? 'ca-watch' : 'ca-unwatch';
      link.textContent = unwatch ? 'Watch' : 'Unwatch';
      link.href = link.href.replace(unwatch ? 'action=unwatch' : 'action=watch', unwatch ? 'action=watch' : 'action=unwatch');
      notify(unwatch ? '"' + name + '" and its talk page have been removed from your watchlist.' : '"' + name + '" and its talk page have been added to your watchlist.');
    }).catch(function () { location.href = link.href; });
  });

  // Log out with the API (a POST with the session's token), then show the page as a reader.
  var logout = document.querySelector('#pt-logout a');
  if (logout) {
    logout.addEventListener('click', function (e) {
      e.preventDefault();
      notify('Logging out…');
      token('csrf').then(function (t) { return post({ action: 'logout', token: t }); }).then(function (r) {
        if (r.error) throw new Error(r.error.info);
        location.reload();
      }).catch(function () { location.href = logout.href; });
    });
  }
})();
`;

/** Where pages load it from: versioned by its content, so browsers may keep it for a year. */
export const SKIN_SCRIPT_PATH = `${SCRIPT_PATH}/skins/quire.js?v=${crypto.createHash('sha256').update(SKIN_SCRIPT).digest('hex').slice(0, 12)}`;
