"""The full OAuth 1.0a handshake with Debian's python3-mwoauth, as a Toolforge tool does it:
initiate → authorize (the consent page, answered by a logged-in user with a browser session) →
complete (token) → identify (JWT), then signed action API requests with requests_oauthlib; and
the refusals: a wrong secret, a replayed nonce, a used request token. The consumer is proposed
on Special:OAuthConsumerRegistration and approved on Special:OAuthManageConsumers."""
import html
import os
import re
import secrets
import sys
import time
import traceback
from urllib.parse import urlencode, urlparse

sys.path = [p for p in sys.path if os.path.abspath(p or '.') != os.path.dirname(os.path.abspath(__file__))]
import mwoauth  # noqa: E402
import requests  # noqa: E402
from requests_oauthlib import OAuth1  # noqa: E402

WIKI = os.environ['WIKI_URL'].rstrip('/')
USER, PASSWORD = os.environ['WIKI_USER'], os.environ['WIKI_PASSWORD']
INDEX, API = f'{WIKI}/w/index.php', f'{WIKI}/w/api.php'
CALLBACK = 'https://tool.example/mwoauth-callback'
RUN = f'{int(time.time() * 1000):x}{secrets.token_hex(3)}'
UA = {'User-Agent': 'quire-conformance (python3-mwoauth)'}


class StepFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise StepFailure(message)


def equal(actual, expected, what):
    if actual != expected:
        raise StepFailure(f'{what}: expected {expected!r}, got {actual!r}')


def run_steps(steps):
    print(f'python3-mwoauth against {WIKI} (run {RUN})', flush=True)
    failed = 0
    for name, fn in steps:
        started = time.time()
        try:
            detail = fn()
            print(f'PASS {name}')
            print(f'       {detail + ", " if detail else ""}{int((time.time() - started) * 1000)} ms', flush=True)
        except Exception as e:  # every failure is a failed step, never the end of the workflow
            failed += 1
            why = str(e) if isinstance(e, StepFailure) else ' | '.join(traceback.format_exception_only(type(e), e)).strip()
            print(f'FAIL {name} — {" ".join(why.split())}', flush=True)
    print(f'python3-mwoauth: {len(steps) - failed}/{len(steps)} steps passed')
    return 1 if failed else 0


browser = requests.Session()
browser.headers.update(UA)
state = {}


def hidden_fields(form_html):
    return {html.unescape(n): html.unescape(v) for n, v in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form_html)}


def form_of(page, action_has):
    for action, inner in re.findall(r'<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)</form>', page):
        if action_has in html.unescape(action):
            return html.unescape(action), hidden_fields(inner)
    raise StepFailure(f'no form for {action_has}: {page[:300]!r}')


def post_form(page, action_has, extra):
    action, fields = form_of(page, action_has)
    fields.update(extra)
    return browser.post(WIKI + action if action.startswith('/') else action, data=fields, allow_redirects=False)


def api(auth, **params):
    params.setdefault('format', 'json')
    params.setdefault('formatversion', '2')
    return requests.post(API, data=params, auth=auth, headers=UA).json()


def login_and_register():
    token = browser.get(API, params={'action': 'query', 'meta': 'tokens', 'type': 'login', 'format': 'json'}).json()['query']['tokens']['logintoken']
    r = browser.post(API, data={'action': 'clientlogin', 'username': USER, 'password': PASSWORD, 'logintoken': token, 'loginreturnurl': WIKI, 'format': 'json'}).json()
    equal(r['clientlogin']['status'], 'PASS', 'clientlogin')
    page = browser.get(INDEX, params={'title': 'Special:OAuthConsumerRegistration/propose'}).text
    r = post_form(page, 'OAuthConsumerRegistration', {
        'wpname': f'Conformance mwoauth {RUN}', 'wpversion': '1.0', 'wpdescription': 'python3-mwoauth handshake',
        'wpoauthVersion': '1', 'wpcallbackUrl': CALLBACK, 'wpgrants[]': ['grant-editpage'],
    })
    values = [html.unescape(c) for c in re.findall(r'<code>([^<]*)</code>', r.text)]
    check(len(values) >= 2 and re.fullmatch(r'[0-9a-f]{32}', values[0]), f'registration result: {values}')
    state['consumer'] = mwoauth.ConsumerToken(values[0], values[1])
    manage = browser.get(INDEX, params={'title': 'Special:OAuthManageConsumers/proposed'}).text
    r = post_form(manage, 'OAuthManageConsumers', {'wpconsumerKey': values[0], 'wpaction': 'approve', 'wpreason': ''})
    check('is now approved' in r.text, 'approval not confirmed')
    return f'consumer {values[0]}'


def handshake():
    redirect, request_token = mwoauth.initiate(INDEX, state['consumer'], user_agent=UA['User-Agent'])
    check(request_token.key and request_token.secret, 'no request token')
    # The user's browser: the consent page (Special:OAuth/authenticate), then Allow.
    page = browser.get(redirect)
    equal(page.status_code, 200, 'consent page status')
    check('would like to' in page.text and 'editpage' in page.text, 'the consent page does not list the grants')
    answer = post_form(page.text, 'Special:OAuth', {'wpAllow': '1'})
    equal(answer.status_code, 302, 'consent answer status')
    location = answer.headers['Location']
    check(location.startswith(CALLBACK), f'callback {location}')
    state['access'] = mwoauth.complete(INDEX, state['consumer'], request_token, urlparse(location).query, user_agent=UA['User-Agent'])
    check(state['access'].key and state['access'].secret, 'no access token')
    # The request token is used once.
    try:
        mwoauth.complete(INDEX, state['consumer'], request_token, urlparse(location).query, user_agent=UA['User-Agent'])
        raise StepFailure('a used request token was exchanged again')
    except mwoauth.OAuthException:
        pass
    except TypeError:  # mwoauth reads a missing oauth_token as None
        pass
    return f'access token {state["access"].key}'


def identify():
    identity = mwoauth.identify(INDEX, state['consumer'], state['access'], user_agent=UA['User-Agent'])
    equal(identity['username'], USER, 'identify username')
    for claim in ('iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'groups', 'rights', 'blocked', 'editcount'):
        check(claim in identity, f'identify lacks {claim}')
    equal(identity['aud'], state['consumer'].key, 'aud')
    return f'{identity["username"]}, groups {",".join(identity["groups"])}'


def auth(secret=None, **kw):
    c, a = state['consumer'], state['access']
    return OAuth1(c.key, client_secret=secret or c.secret, resource_owner_key=a.key, resource_owner_secret=a.secret, **kw)


def signed_requests():
    me = api(auth(), action='query', meta='userinfo', uiprop='rights')['query']['userinfo']
    equal(me['name'], USER, 'userinfo name')
    check('delete' not in me['rights'] and 'edit' in me['rights'], f'rights {me["rights"]}')
    token = api(auth(), action='query', meta='tokens')['query']['tokens']['csrftoken']
    r = api(auth(), action='edit', title='Main Page', appendtext=f'\n<!-- mwoauth {RUN} -->', summary='python3-mwoauth', token=token)
    equal(r.get('edit', {}).get('result'), 'Success', f'edit ({r})')
    r = api(auth(), action='edit', title=f'Conformance mwoauth {RUN}', text='x', token=token)
    equal(r.get('error', {}).get('code'), 'cantcreate', 'create without the createeditmovepage grant')
    return f'edited as {me["name"]}'


def refusals():
    r = api(auth(secret='0' * 40), action='query', meta='userinfo')
    equal(r.get('error', {}).get('code'), 'mwoauth-invalid-authorization', 'a wrong consumer secret')
    check('Invalid signature' in r['error']['info'], r['error']['info'])
    fixed = {'nonce': secrets.token_hex(16), 'timestamp': str(int(time.time()))}
    first = api(auth(**fixed), action='query', meta='userinfo')
    check('error' not in first, f'first use of a nonce: {first}')
    replay = api(auth(**fixed), action='query', meta='userinfo')
    equal(replay.get('error', {}).get('code'), 'mwoauth-invalid-authorization', 'a replayed nonce')
    check('Nonce already used' in replay['error']['info'], replay['error']['info'])
    old = api(auth(timestamp=str(int(time.time()) - 3600)), action='query', meta='userinfo')
    equal(old.get('error', {}).get('code'), 'mwoauth-invalid-authorization', 'an expired timestamp')
    return 'wrong secret, replayed nonce, expired timestamp: mwoauth-invalid-authorization'


def authenticate_again():
    # An identification-only consumer: the second "authenticate" skips the consent page.
    page = browser.get(INDEX, params={'title': 'Special:OAuthConsumerRegistration/propose'}).text
    r = post_form(page, 'OAuthConsumerRegistration', {
        'wpname': f'Conformance mwoauth identify {RUN}', 'wpversion': '1.0', 'wpdescription': 'identity only',
        'wpoauthVersion': '1', 'wpcallbackUrl': CALLBACK, 'wpgranttype': 'authonly',
    })
    values = [html.unescape(c) for c in re.findall(r'<code>([^<]*)</code>', r.text)]
    check(len(values) >= 2, f'registration result: {values}')
    consumer = mwoauth.ConsumerToken(values[0], values[1])
    manage = browser.get(INDEX, params={'title': 'Special:OAuthManageConsumers/proposed'}).text
    check('is now approved' in post_form(manage, 'OAuthManageConsumers', {'wpconsumerKey': values[0], 'wpaction': 'approve', 'wpreason': ''}).text, 'approval')
    redirect, request_token = mwoauth.initiate(INDEX, consumer, user_agent=UA['User-Agent'])
    answer = post_form(browser.get(redirect).text, 'Special:OAuth', {'wpAllow': '1'})
    access = mwoauth.complete(INDEX, consumer, request_token, urlparse(answer.headers['Location']).query, user_agent=UA['User-Agent'])
    identity = mwoauth.identify(INDEX, consumer, access, user_agent=UA['User-Agent'])
    equal(identity['grants'], ['mwoauth-authonly'], 'grants')
    r = api(OAuth1(consumer.key, client_secret=consumer.secret, resource_owner_key=access.key, resource_owner_secret=access.secret), action='query', meta='userinfo', uiprop='rights')
    equal(r.get('error', {}).get('code'), 'readapidenied', 'an API read with identification-only grants')
    redirect, request_token = mwoauth.initiate(INDEX, consumer, user_agent=UA['User-Agent'])
    again = browser.get(redirect, allow_redirects=False)
    equal(again.status_code, 302, 'the second authenticate goes straight back')
    access2 = mwoauth.complete(INDEX, consumer, request_token, urlparse(again.headers['Location']).query, user_agent=UA['User-Agent'])
    equal(access2.key, access.key, 'the same authorization')
    return 'no consent page the second time'


sys.exit(run_steps([
    ('log in and register a 1.0a consumer on the special pages', login_and_register),
    ('initiate → authorize (consent page) → token', handshake),
    ('identify: a JWT signed with the consumer secret', identify),
    ('signed action API requests: grants ∩ rights, CSRF token', signed_requests),
    ('wrong secret, replayed nonce and old timestamp are refused', refusals),
    ('identification only: no rights; authenticate again skips the consent page', authenticate_again),
]))
