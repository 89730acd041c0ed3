// Stands in for `undici` in the handler and provider bundles (esbuild alias). The transport needs an Agent
// and Dispatcher#request; undici's index also loads fetch, WebSocket, EventSource, the cache and
// the mocks at require time, which would more than double the start-up of every handler process.
'use strict';
const Agent = require('undici/lib/dispatcher/agent');
const Dispatcher = require('undici/lib/dispatcher/dispatcher');

Dispatcher.prototype.request = require('undici/lib/api/api-request');

module.exports = { Agent };
