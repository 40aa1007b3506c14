import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { notFound } from '@platform/kit/errors/domain-error.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { appendAudit } from '../audit/append-audit.ts';
import { clientAddressOf } from '../http/client-address.ts';
import type { DownloadSigner } from './download-signature.ts';
import { sendFile } from './send-file.ts';
import type { FileStorage } from './storage.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** What a signed download uses of the file server's parts. */
export interface SignedDownloadDeps {
  runtime: Runtime;
  files: ResourceRuntime;
  storage: FileStorage;
  signer: DownloadSigner;
}

/** Who a signed download is audited as when its URL names no user (the record's own `downloadUrl`). */
export const SIGNED_URL_USER = 'anonymous';

/**
 * GET|HEAD /api/dms-file/download/{id}: a signed URL needs no session (docs/interface.md#files): the
 * signature is the credential; a deleted file is 404. Each GET answered with bytes (200 or 206)
 * appends a DOWNLOAD audit row, as the user the URL was signed for (download-url names who asked)
 * or else SIGNED_URL_USER, with the client's address and User-Agent before the first byte goes
 * out (a row that cannot be written fails the download); a 416 and a HEAD send no content and are
 * not audited.
 */
export async function signedDownload(
  deps: SignedDownloadDeps,
  req: IncomingMessage,
  res: ServerResponse,
  idText: string,
  query: URLSearchParams,
): Promise<void> {
  const { id, inline, user } = deps.signer.verify(idText, query);
  const em = scopedFork(deps.runtime.orm, { platform: 'signed-download' });
  const row = await em.findOne(deps.files.entity, { id, deleted: false });
  if (!row) throw notFound(dmsFile.path);
  await sendFile(
    req,
    res,
    deps.storage,
    {
      storedFileName: String(row.storedFileName),
      originalFileName: String(row.originalFileName),
      mimeType: String(row.mimeType),
      checksum: String(row.checksum),
      inline,
    },
    {
      // once it is settled that bytes go out (not for a 416)
      beforeBytes: () =>
        em.transactional((tx) =>
          appendAudit(tx, Number(row.crProcessId), {
            action: 'DOWNLOAD',
            userCode: user ?? SIGNED_URL_USER,
            fileId: Number(row.id),
            ...clientAddressOf(req),
            details: { inline, ...(req.headers.range ? { range: req.headers.range.slice(0, 100) } : {}) },
          }),
        ),
    },
  );
}
