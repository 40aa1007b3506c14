import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The PEM files of one certificate authority and one certificate it signed, in a folder. */
export interface CertificateFiles {
  ca: string;
  cert: string;
  key: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * A fresh CA (`<name>-ca.crt`) and a certificate it signed for both TLS server and client use with
 * the given subject alternative names (`<name>.crt`, key `<name>.key`), P-256 keys, valid one day:
 * what deploy/README.md has the operator make for the Secret platform-grpc-tls. Needs `openssl`.
 *
 * @example
 * const files = makeCertificates(dir, 'platform', ['DNS:localhost', 'IP:127.0.0.1']);
 */
export function makeCertificates(dir: string, name: string, altNames: string[]): CertificateFiles {
  const files = { ca: `${name}-ca.crt`, caKey: `${name}-ca.key`, cert: `${name}.crt`, key: `${name}.key`, csr: `${name}.csr`, ext: `${name}.ext` };
  const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...curve,
    '-keyout',
    files.caKey,
    '-out',
    files.ca,
    '-days',
    '1',
    '-subj',
    `/CN=${name} test CA`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, ['req', ...curve, '-keyout', files.key, '-out', files.csr, '-subj', `/CN=${name}`]);
  writeFileSync(
    join(dir, files.ext),
    [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth,clientAuth',
      `subjectAltName=${altNames.join(',')}`,
    ].join('\n'),
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    files.csr,
    '-CA',
    files.ca,
    '-CAkey',
    files.caKey,
    '-CAcreateserial',
    '-out',
    files.cert,
    '-days',
    '1',
    '-extfile',
    files.ext,
  ]);
  return { ca: join(dir, files.ca), cert: join(dir, files.cert), key: join(dir, files.key) };
}
