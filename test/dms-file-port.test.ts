/**
 * dms-svc's file port (DMS_HTTP_ADDR) answers the gateway only
 * (docs/adr/0053-dms-svc-s-file-bytes-port-stays.md): a request without the gateway's credential is 403 SVC-SYS-1003
 * before anything of it is read — the upload, the signed download, the public share link and
 * validate-password alike — so its X-Forwarded-For reaches no audit row and the share-password
 * throttle cannot be walked around. And the internal ports bind loopback under the launcher's
 * defaults (INTERNAL_LISTEN_HOST unset), as `npm start` starts them.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import test from 'ava';
import { FILE_PORT_CREDENTIAL_HEADER, FilePortCredential } from '@platform/kit/auth/file-port-credential.ts';
import { loadDmsConfig } from '@platform/dms-svc/config.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { sql } from './helpers/db.ts';
import { sharedWithPassword, upload } from './helpers/files.ts';
import { listeners } from './helpers/listeners.ts';
import { api, platform } from './helpers/platform.ts';

const direct = `http://${platform.env.DMS_HTTP_ADDR}`;
const credential = new FilePortCredential(platform.env.DMS_FILE_PORT_SECRET ?? '').value;

/** A file of a fresh tenant, its signed download path, and a share link to it with a password. */
async function fixture() {
  const shared = await sharedWithPassword((crProcessId) => `pw-${crProcessId}-right`, 'file port bytes', 'port.txt');
  const signed = new URL(shared.record.downloadUrl, 'http://x');
  return { ...shared, download: signed.pathname + signed.search };
}

async function auditAddresses(crProcessId: number): Promise<string[]> {
  const rows = await sql<{ action: string; ip_address: string | null }>(
    'select action, ip_address from dms.dms_audit_log where cr_process_id = $1 order by id',
    [crProcessId],
  );
  return rows.map((row) => `${row.action} ${row.ip_address}`);
}

test('without the gateway credential the file port refuses the upload, the download, the share link and validate-password: 403 SVC-SYS-1003', async (t) => {
  const { token, crProcessId, link, password, download } = await fixture();
  const before = await auditAddresses(crProcessId);
  const wrong = { [FILE_PORT_CREDENTIAL_HEADER]: `${credential.startsWith('a') ? 'b' : 'a'}${credential.slice(1)}` };
  for (const headers of [{}, wrong]) {
    const uploaded = await upload({ token, crProcessId, content: 'straight in', baseUrl: direct, headers });
    assertErrorBody(t, uploaded, 403, 'SVC-SYS-1003');
    assertErrorBody(t, await api('GET', download, { baseUrl: direct, headers }), 403, 'SVC-SYS-1003');
    assertErrorBody(t, await api('GET', link.url, { baseUrl: direct, headers }), 403, 'SVC-SYS-1003');
    // the throttle's walk-around: wrong tries, then the right one, straight to dms-svc
    for (const tried of ['wrong-1', 'wrong-2', 'wrong-3', 'wrong-4', 'wrong-5', 'wrong-6', 'wrong-7', 'wrong-8', password]) {
      assertErrorBody(t, await api('POST', `${link.url}/validate-password`, { baseUrl: direct, headers, body: { password: tried } }), 403, 'SVC-SYS-1003');
    }
  }
  t.deepEqual(await auditAddresses(crProcessId), before, 'nothing refused is audited');
  const [files] = await sql<{ count: string }>('select count(*) from dms.dms_file where cr_process_id = $1', [crProcessId]);
  t.is(Number(files?.count), 1, 'no upload was kept');

  // the control: with the credential the same port serves (so the refusals above are the credential's)
  const served = await api('POST', `${link.url}/validate-password`, {
    baseUrl: direct,
    headers: { [FILE_PORT_CREDENTIAL_HEADER]: credential },
    body: { password },
  });
  t.is(served.status, 200, served.text);
});

test("a forged X-Forwarded-For without the credential is not recorded; the gateway's, with it, is", async (t) => {
  const { crProcessId, link, password } = await fixture();
  const forged = '203.0.113.66';
  const refused = await api('POST', `${link.url}/validate-password`, { baseUrl: direct, headers: { 'x-forwarded-for': forged }, body: { password } });
  assertErrorBody(t, refused, 403, 'SVC-SYS-1003');
  // through the gateway the client's header is replaced by the address the gateway proved
  const through = await api('POST', `${link.url}/validate-password`, { headers: { 'x-forwarded-for': forged }, body: { password } });
  t.is(through.status, 200, through.text);
  const audited = await auditAddresses(crProcessId);
  t.false(
    audited.some((row) => row.includes(forged)),
    audited.join(', '),
  );
  t.true(
    audited.some((row) => /^PASSWORD_OK (::ffff:)?127\.0\.0\.1$/.test(row)),
    audited.join(', '),
  );
  // the gateway's own header is believed: what it sends with the credential is what is kept
  const relayed = '198.51.100.7';
  const proxied = await api('POST', `${link.url}/validate-password`, {
    baseUrl: direct,
    headers: { [FILE_PORT_CREDENTIAL_HEADER]: credential, 'x-forwarded-for': relayed },
    body: { password },
  });
  t.is(proxied.status, 200, proxied.text);
  t.true((await auditAddresses(crProcessId)).includes(`PASSWORD_OK ${relayed}`));
});

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));

test("the internal ports bind 127.0.0.1 under the launcher's defaults: the file port, the gRPC ports, the metrics ports", async (t) => {
  t.is(platform.env.INTERNAL_LISTEN_HOST, undefined, 'the defaults: no INTERNAL_LISTEN_HOST');
  const addresses: Record<string, string> = {
    'dms-svc file port': platform.env.DMS_HTTP_ADDR ?? '',
    'core-svc gRPC': platform.grpc.core,
    'bpm-svc gRPC': platform.grpc.bpm,
    'dms-svc gRPC': platform.grpc.dms,
    ...Object.fromEntries(Object.entries(platform.metrics).map(([name, address]) => [`${name} metrics`, address ?? ''])),
  };
  // the file port, three gRPC ports, and the metrics of the three services and of their three workers
  t.is(Object.keys(addresses).length, 10);
  for (const [name, address] of Object.entries(addresses)) {
    t.deepEqual(await listeners(portOf(address)), ['127.0.0.1'], `${name} (${address})`);
  }
  // and from the machine's own other addresses, nothing answers
  const outward = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
  if (outward) {
    const error = await new Promise<string>((resolve) => {
      const socket = connect(portOf(platform.env.DMS_HTTP_ADDR ?? ''), outward, () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (failure: NodeJS.ErrnoException) => resolve(failure.code ?? failure.message));
    });
    t.is(error, 'ECONNREFUSED', `the file port from ${outward}`);
  }
});

test('INTERNAL_LISTEN_HOST is an IP address, 127.0.0.1 when unset; a Service name or anything else refuses the start', (t) => {
  const base = { ...platform.env };
  delete base.INTERNAL_LISTEN_HOST;
  t.is(loadDmsConfig(base).internalListenHost, '127.0.0.1');
  t.is(loadDmsConfig({ ...base, INTERNAL_LISTEN_HOST: '0.0.0.0' }).internalListenHost, '0.0.0.0');
  t.is(loadDmsConfig({ ...base, INTERNAL_LISTEN_HOST: '::' }).internalListenHost, '::');
  for (const host of ['dms-svc', 'localhost', '127.0.0.1:50054', '*']) {
    t.throws(() => loadDmsConfig({ ...base, INTERNAL_LISTEN_HOST: host }), { message: /INTERNAL_LISTEN_HOST must be an IP address/ }, host);
  }
});
