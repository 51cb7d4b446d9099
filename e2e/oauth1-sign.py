"""Signs one request with requests-oauthlib (Debian's python3-requests-oauthlib) for oauth1-placement.test.ts.

Reads {method, url, form, placement, consumer: [key, secret], token: [key, secret]|null, callback, verifier}
as JSON on stdin and prints the signed request {url, headers, body} as JSON: the test sends it.
placement: header (Authorization), query (the URL) or body (a form body).
"""
import json
import sys

import requests
from oauthlib.oauth1 import SIGNATURE_TYPE_AUTH_HEADER, SIGNATURE_TYPE_BODY, SIGNATURE_TYPE_QUERY
from requests_oauthlib import OAuth1

PLACEMENTS = {'header': SIGNATURE_TYPE_AUTH_HEADER, 'query': SIGNATURE_TYPE_QUERY, 'body': SIGNATURE_TYPE_BODY}

spec = json.load(sys.stdin)
token = spec.get('token') or [None, None]
auth = OAuth1(
    spec['consumer'][0],
    client_secret=spec['consumer'][1],
    resource_owner_key=token[0],
    resource_owner_secret=token[1],
    callback_uri=spec.get('callback'),
    verifier=spec.get('verifier'),
    signature_type=PLACEMENTS[spec['placement']],
)
form = spec.get('form')
prepared = requests.Request(spec['method'], spec['url'], data=form if form is not None else None).prepare()
signed = auth(prepared)
body = signed.body
if isinstance(body, bytes):
    body = body.decode('utf-8')
# The sender computes Content-Length for the body it sends.
headers = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in signed.headers.items() if k.lower() != 'content-length'}
print(json.dumps({'url': signed.url, 'headers': headers, 'body': body}))
