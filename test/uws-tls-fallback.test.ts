/**
 * uWS serves TLS through its native SSLApp only. The package's JavaScript
 * fallback has no SSLApp, and wsbench's detection refuses the fallback before
 * a TLS server could start on it: a uws server child asked for TLS under the
 * fallback fails with that reason, never serving TLS some other way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { makeCertificate } from '../src/parent/certificate.js';
import { isNativeFunction, loadUws } from '../src/child/servers/uws-build.js';
import { startServerChild } from './tls-children.js';

test("the native build's SSLApp is a C++ binding; the fallback has none", () => {
  const { module, build } = loadUws();
  assert.equal(build?.native, true);
  assert.equal(isNativeFunction(module?.SSLApp), true);
  const fallback = createRequire(import.meta.url)('uWebSockets.js/dist/index.js') as Record<string, unknown>;
  assert.equal(typeof fallback.App, 'function');
  assert.equal(fallback.SSLApp, undefined);
});

test('a uws server child asked for TLS under the fallback fails with the fallback reason', async () => {
  const certificate = await makeCertificate();
  // The child inherits this environment; UWS_USE_FALLBACK makes the package load its imitation.
  process.env.UWS_USE_FALLBACK = '1';
  try {
    await assert.rejects(
      startServerChild('uws', { certPem: certificate.certPem, keyPem: certificate.keyPem }),
      (error: Error) => {
        assert.match(
          error.message,
          /^server uws: native uWebSockets\.js binary did not load; @trufflesuite\/uws-js-unofficial fell back to its JavaScript \(ws-based\) implementation/,
        );
        return true;
      },
    );
  } finally {
    delete process.env.UWS_USE_FALLBACK;
  }
});
