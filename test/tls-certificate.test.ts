/**
 * The run's throwaway certificate: self-signed, a server certificate only (no CA),
 * its key its own, valid for the loopback names and the extra hosts it is asked
 * for and no other address, for as long as asked; a TLS client trusting it
 * reaches a server at a listed address and refuses one at an unlisted address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { connect, createServer, type Server } from 'node:tls';
import { DEFAULT_VALIDITY_MS, makeCertificate, type TlsCertificate } from '../src/parent/certificate.js';

test('an ECDSA P-256 certificate for the loopback names and the extra host, valid two days', async () => {
  const before = Date.now();
  const certificate = await makeCertificate({ extraHosts: ['127.0.0.7'] });
  const x509 = new X509Certificate(certificate.certPem);
  assert.equal(certificate.keyType, 'ecdsa-p256');
  assert.equal(
    x509.subjectAltName,
    'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:127.0.0.7',
  );
  assert.deepEqual(certificate.hosts, ['localhost', '127.0.0.1', '::1', '127.0.0.7']);
  assert.equal(x509.checkIP('127.0.0.7'), '127.0.0.7');
  assert.equal(x509.checkIP('127.0.0.8'), undefined);
  assert.equal(x509.checkHost('localhost'), 'localhost');
  assert.equal(x509.ca, false, 'a server certificate, not a CA');
  assert.equal(x509.issuer, x509.subject, 'self-signed');
  assert.ok(x509.verify(x509.publicKey), 'signed by its own key');
  assert.ok(x509.checkPrivateKey(createPrivateKey(certificate.keyPem)), "the key is the certificate's");
  assert.equal(x509.publicKey.asymmetricKeyType, 'ec');
  assert.equal(x509.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.equal(certificate.fingerprintSha256, x509.fingerprint256);
  // X.509 dates have whole seconds.
  assert.equal(Math.floor(certificate.notAfterMs / 1000) * 1000, Date.parse(x509.validTo));
  assert.ok(
    certificate.notAfterMs >= before + DEFAULT_VALIDITY_MS &&
      certificate.notAfterMs <= Date.now() + DEFAULT_VALIDITY_MS,
  );
  assert.ok(Date.parse(x509.validFrom) <= before, 'valid from before it was made');
});

test('an RSA 2048 certificate when asked, a validity as asked, and a new key and serial every time', async () => {
  const [rsa, short] = await Promise.all([
    makeCertificate({ keyType: 'rsa-2048' }),
    makeCertificate({ validForMs: 60_000 }),
  ]);
  const x509 = new X509Certificate(rsa.certPem);
  assert.equal(x509.publicKey.asymmetricKeyType, 'rsa');
  assert.equal(x509.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  assert.ok(x509.checkPrivateKey(createPrivateKey(rsa.keyPem)));
  assert.ok(short.notAfterMs - Date.now() <= 60_000);
  const again = await makeCertificate({ validForMs: 60_000 });
  assert.notEqual(new X509Certificate(again.certPem).serialNumber, new X509Certificate(short.certPem).serialNumber);
  assert.notEqual(again.fingerprintSha256, short.fingerprintSha256);
  assert.notEqual(again.keyPem, short.keyPem);
});

test('a client trusting only the certificate completes a handshake at a listed address and refuses an unlisted one', async () => {
  const certificate = await makeCertificate({ extraHosts: ['127.0.0.7'] });
  const servers = await Promise.all(['127.0.0.7', '127.0.0.8'].map((host) => listen(certificate, host)));
  try {
    const [listed, unlisted] = servers.map((server) => server.address() as { address: string; port: number });
    assert.equal(await handshake(certificate, listed!.address, listed!.port), 'TLSv1.3');
    await assert.rejects(handshake(certificate, unlisted!.address, unlisted!.port), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
});

function listen(certificate: TlsCertificate, host: string): Promise<Server> {
  const server = createServer({ cert: certificate.certPem, key: certificate.keyPem }, (socket) => socket.end());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

/** The negotiated protocol, or the verification error. */
function handshake(certificate: TlsCertificate, host: string, port: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, ca: certificate.certPem }, () => {
      resolve(socket.getProtocol());
      socket.end();
    });
    socket.once('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no handshake within 10 s')));
  });
}
