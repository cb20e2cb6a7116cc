/**
 * Certificates for tests that speak real TLS on loopback (openssl, as an operator would make them): a CA and
 * certificates it signs, written into `dir` as `<name>.key` / `<name>.crt` (the CA as `ca.key` / `ca.crt`). A
 * certificate with `ip` carries it as subjectAltName (a server on 127.0.0.1); one without is a client certificate.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificate {
  /** Files `<name>.key`, `<name>.crt`. */
  name: string;
  /** The subject's common name. */
  cn: string;
  /** subjectAltName IP (servers). */
  ip?: string;
}

/** Make the CA (CN=`caName`) and each certificate, valid for a day. */
export function makeTestCertificates(
  dir: string,
  caName: string,
  certificates: readonly TestCertificate[],
): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...key,
    '-days',
    '1',
    '-subj',
    `/CN=${caName}`,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  );
  for (const { name, cn, ip } of certificates) {
    openssl('req', ...key, '-subj', `/CN=${cn}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    const ext: string[] = [];
    if (ip !== undefined) {
      writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=IP:${ip}\n`);
      ext.push('-extfile', `${name}.ext`);
    }
    const ca = ['-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'];
    openssl('x509', '-req', '-in', `${name}.csr`, ...ca, '-days', '1', '-out', `${name}.crt`, ...ext);
  }
}
