import { defineHooks } from '@platform/libs/crud/handlers.ts';
import { recordUrlExpiry, type DownloadSigner } from '../../files/download-signature.ts';
import { dmsFile } from './dms-file.resource.ts';

/**
 * Every dms-file record going out (get, list, update, the extra RPCs) carries `downloadUrl`: an
 * attachment URL signed by the one signer, expiring at the end of the next TTL window (see
 * recordUrlExpiry), so that two reads of an unchanged record are equal.
 */
export function dmsFileHooks(signer: DownloadSigner, ttlSeconds: number) {
  return defineHooks(dmsFile, {
    async decorate(rows, messages) {
      const expires = recordUrlExpiry(ttlSeconds);
      rows.forEach((row, i) => {
        const message = messages[i];
        if (message) message.downloadUrl = signer.sign(row.id, expires, false).url;
      });
    },
  });
}
