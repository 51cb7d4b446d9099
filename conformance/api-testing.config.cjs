'use strict';
// api-testing's config for the run (loaded through API_TESTING_CONFIG_FILE). The values come from
// run.mjs through the environment.
//
// MediaWiki's REL1_39 tests were written for api-testing 1.5.x, which built URLs by plain
// concatenation: base_uri ('…/w/') + 'rest.php/v1' + '/page/X'. api-testing >= 1.7.2 strips the
// base's trailing slash and collapses '//' in REST paths, which breaks two REL1_39 files
// (REST/Transform.js posts relative 'rest.php/…' paths on the raw agent; REST/UserContributions.js
// asks for '/user//contributions' and expects 400). The factory below restores 1.5.x URL
// building; nothing else of the library changes.
const supertest = require('supertest');
const REST = require('api-testing/lib/REST');

const base = process.env.CONFORMANCE_BASE_URI; // ends with '/w/'

/** 1.5.x: the agent's base is base_uri as configured, and a path is appended to it as given. */
function join(path) {
  if (/^https?:\/\//.test(path)) return path;
  return base + (path.startsWith('/') ? path.slice(1) : path);
}

function factory() {
  const agent = supertest.agent('');
  const wrapped = Object.create(agent);
  for (const method of ['get', 'post', 'put', 'del', 'delete', 'patch', 'head', 'options']) {
    wrapped[method] = (path, ...rest) => agent[method](join(path), ...rest);
  }
  // Transform.js reads client.req.app as the base URL.
  wrapped.app = base;
  return wrapped;
}

// 1.5.x RESTClient.request: endpoint = this.pathPrefix + endpoint, no normalization.
const request15 = function (endpoint, method, params = {}, headers = {}) {
  endpoint = this.pathPrefix + endpoint;
  switch (method.toUpperCase()) {
    case 'GET':
      return this.req.get(endpoint).query(params).set(headers);
    case 'POST':
      return this.req.post(endpoint).send(params).set(headers);
    case 'PUT':
      return this.req.put(endpoint).send(params).set(headers);
    case 'DELETE':
      return this.req.del(endpoint).query(params).set(headers);
    default:
      throw new Error(`The following method is unsupported: ${method}`);
  }
};
REST.prototype.request = request15;

module.exports = {
  base_uri: base,
  main_page: 'Main Page',
  root_user: {
    name: process.env.CONFORMANCE_ROOT_USER,
    password: process.env.CONFORMANCE_ROOT_PASSWORD,
  },
  secret_key: process.env.CONFORMANCE_SECRET_KEY,
  factory,
};
