"""A full bot workflow with mwclient (Debian's python3-mwclient), through its own methods wherever
it has one; clientlogin and logout, which this version lacks, go through its raw post()."""
import io
import os
import random
import secrets
import struct
import sys
import time
import traceback
import zlib
from urllib.parse import urlparse

# This file is named after the library: keep its own folder off the import path.
sys.path = [p for p in sys.path if os.path.abspath(p or '.') != os.path.dirname(os.path.abspath(__file__))]
import mwclient  # noqa: E402

url = urlparse(os.environ['WIKI_URL'])
USER, PASSWORD = os.environ['WIKI_USER'], os.environ['WIKI_PASSWORD']
BOT_USER, BOT_PASSWORD = os.environ['WIKI_BOT_USER'], os.environ['WIKI_BOT_PASSWORD']
RUN = f'{int(time.time() * 1000):x}{secrets.token_hex(3)}'
BULK_PREFIX, BULK_COUNT = 'Conformance bulk/', 520


def site(**options):
    return mwclient.Site(url.netloc, path='/w/', scheme=url.scheme, clients_useragent='quire-conformance (mwclient)', **options)


class StepFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise StepFailure(message)


def equal(actual, expected, what):
    check(actual == expected, f'{what}: expected {expected!r}, got {actual!r}')


def eventually(fn, what, timeout=20):
    deadline = time.time() + timeout
    while True:
        result = fn()
        if result:
            return result
        if time.time() > deadline:
            raise StepFailure(f'{what} (waited {timeout} s)')
        time.sleep(0.5)


def unique_png():
    """A valid 1x1 PNG no earlier run uploaded: a random colour and a text chunk with the run id."""
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    pixel = bytes([0, random.randrange(256), random.randrange(256), random.randrange(256)])
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 1, 1, 8, 2, 0, 0, 0))
            + chunk(b'tEXt', f'Comment\0quire conformance {RUN}'.encode('latin-1'))
            + chunk(b'IDAT', zlib.compress(pixel)) + chunk(b'IEND', b''))


def run_steps(steps):
    print(f'mwclient {mwclient.__version__} against {os.environ["WIKI_URL"]} (run {RUN})', flush=True)
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
    print(f'mwclient: {len(steps) - failed}/{len(steps)} steps passed')
    return 1 if failed else 0


bot, human = site(), site()
anonymous = site(force_login=False)  # edits without an account, as another editor
page, moved = f'Conformance mwclient {RUN}', f'Conformance mwclient moved {RUN}'
conflict_page = f'{page}/conflict'
file_name = f'Conformance mwclient {RUN}.png'


def userinfo(client):
    return client.api('query', meta='userinfo')['query']['userinfo']


def login():
    bot.login(BOT_USER, BOT_PASSWORD)
    check(bot.logged_in, 'mwclient does not consider itself logged in')
    equal(userinfo(bot)['name'], USER, 'userinfo name after login')
    return f'logged in as {bot.username}'


def clientlogin():
    token = human.get_token('login')
    r = human.post('clientlogin', username=USER, password=PASSWORD, logintoken=token, loginreturnurl=os.environ['WIKI_URL'])['clientlogin']
    equal(r['status'], 'PASS', 'clientlogin status')
    equal(userinfo(human)['name'], USER, 'userinfo name after clientlogin')
    check(human.get_token('csrf') != '+\\', 'no CSRF token for the logged-in session')
    return f'status PASS as {r["username"]}'


def siteinfo():
    check(bot.version[:2] == (1, 39), f'version {bot.version}')
    generator = bot.site['generator']
    check(generator.startswith('MediaWiki 1.39.'), f'generator {generator}')
    equal(bot.namespaces.get(6), 'File', 'name of namespace 6')
    return generator


def edit():
    p = bot.pages[page]
    check(not p.exists, f'{page} exists already')
    r = p.edit(f'Created by mwclient, run {RUN}', summary='conformance: create')
    equal(r['result'], 'Success', 'edit result')
    equal(bot.pages[page].text(cache=False), f'Created by mwclient, run {RUN}', 'content read back')
    r2 = bot.pages[page].append('\n\nappended line', summary='conformance: append')
    check(r2['newrevid'] > r['newrevid'], 'the append made no new revision')
    equal(bot.pages[page].text(cache=False), f'Created by mwclient, run {RUN}\n\nappended line', 'appended content read back')
    return f'revisions {r["newrevid"]} → {r2["newrevid"]}'


def edit_conflict():
    bot.pages[conflict_page].edit('alpha\nbeta\ngamma', summary='conformance: base')
    mine = bot.pages[conflict_page]
    text = mine.text()  # sets the base and start timestamps mwclient sends
    time.sleep(1.1)  # edit times have a resolution of one second
    anonymous.pages[conflict_page].edit('alpha\nbeta changed by someone else\ngamma', summary='conformance: interfering edit')
    try:
        mine.edit(text.replace('beta', 'beta changed by the bot'), summary='conformance: conflicting edit')
    except mwclient.errors.EditError as e:
        check('conflict' in ' '.join(map(str, e.args)).lower(), f'EditError, but not a conflict: {e.args}')
        equal(bot.pages[conflict_page].text(cache=False), 'alpha\nbeta changed by someone else\ngamma', 'content after the refused edit')
        return f'EditError {e.args[-1]!r}'
    raise StepFailure('the conflicting edit was saved')


def upload():
    png = unique_png()
    r = bot.upload(io.BytesIO(png), filename=file_name, description=f'Uploaded by mwclient {RUN}', comment='conformance: upload')
    equal(r['result'], 'Success', 'upload result')
    image = bot.images[file_name]
    check(image.exists, 'the uploaded file does not exist')
    equal(image.imageinfo['size'], len(png), 'uploaded size')
    equal(image.download(), png, 'downloaded bytes')
    return f'{len(png)} bytes, downloaded back'


def move():
    r = bot.pages[page].move(moved, reason='conformance: move')
    equal(r['to'], moved, 'move result "to"')
    equal(bot.pages[moved].text(cache=False), f'Created by mwclient, run {RUN}\n\nappended line', 'content under the new name')
    old = bot.pages[page]
    check(old.redirect, 'the old title is not a redirect')
    equal(old.resolve_redirect().name, moved, 'the old title redirects to')
    return f'{page} → {moved}'


def delete():
    r = bot.pages[moved].delete(reason='conformance: delete')
    equal(r['title'], moved, 'deleted title')
    check(not bot.pages[moved].exists, 'the deleted page still exists')
    return f'log {r["logid"]}'


def search():
    word = f'searchword{RUN}'
    bot.pages[conflict_page].edit(f'alpha\nbeta\ngamma {word}', summary='conformance: searchable')
    hits = eventually(lambda: [h for h in bot.search(word, what='text') if h['title'] == conflict_page],
                      f'text search for {word} did not find {conflict_page}')
    return f'{len(hits)} hit(s)'


def list_continuation():
    def titles():
        return [p.name for p in bot.allpages(prefix=BULK_PREFIX, limit=500)]
    listed = titles()
    if len(listed) < BULK_COUNT:
        have = set(listed)
        for i in range(BULK_COUNT):
            t = f'{BULK_PREFIX}{i:04d}'
            if t not in have:
                bot.pages[t].edit(f'Page {t} for the list continuation step.', summary='conformance: bulk')
        listed = titles()
    equal(len(set(listed)), len(listed), 'distinct titles (a repeated title means a broken continuation)')
    check(len(listed) >= BULK_COUNT, f'listed {len(listed)} pages, want at least {BULK_COUNT}')
    return f'{len(listed)} distinct pages'


def logout():
    bot.post('logout', token=bot.get_token('csrf'))
    me = userinfo(bot)
    check('anon' in me and me['id'] == 0, f'still logged in after logout ({me})')
    return 'anonymous afterwards'


sys.exit(run_steps([
    ('login with a bot password', login),
    ('clientlogin with the main password', clientlogin),
    ('siteinfo and version', siteinfo),
    ('edit and read back', edit),
    ('edit conflict', edit_conflict),
    ('upload', upload),
    ('move', move),
    ('delete as sysop', delete),
    ('search', search),
    ('list continued past 500 items', list_continuation),
    ('logout', logout),
]))
