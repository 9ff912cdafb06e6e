import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throw-away CA and a server certificate it signed, valid for 127.0.0.1 and localhost. */
export interface TestCertificates {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Generates the CA and the server certificate with openssl into `dir` (EC keys: fast to make). */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const path = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=fulfillment-sync test CA',
  ]);
  await run('openssl', [
    'req',
    ...ec,
    '-keyout',
    path('server.key'),
    '-out',
    path('server.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  writeFileSync(path('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    path('server.csr'),
    '-CA',
    path('ca.pem'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-out',
    path('server.pem'),
    '-days',
    '2',
    '-extfile',
    path('san.ext'),
  ]);
  return { caFile: path('ca.pem'), certFile: path('server.pem'), keyFile: path('server.key') };
}
