import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@tus/server';
import type { Locker, Upload } from '@tus/utils';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { releaseUpload } from '../files/upload-reservations.ts';
import type { TusStore } from './tus-store.ts';
import { domainErrorOfTus } from './tus-errors.ts';
import { clientMetadataOf, ownedMetadata, ownerOf } from './tus-metadata.ts';
import { hasBody, TUS_PATH } from './tus-protocol.ts';

/** What one checked request carries to @tus/server's hooks: who asked, and the upload it is about. */
export interface TusCall {
  req: IncomingMessage;
  ctx: CallContext;
  /** The upload: the one the path names, or a creation's id, reserved before tus sees the request. */
  id: string;
}

export interface TusAdapterOptions {
  store: TusStore;
  locker: Locker;
  /** DMS_MAX_UPLOAD_BYTES: tus refuses a longer Upload-Length too. */
  maxUploadBytes: number;
  /** tus's completion hook (tus-completion.ts), under the upload's lock. */
  finish: (call: TusCall, upload: Upload) => Promise<{ headers: Record<string, string> }>;
}

/** What tus knows of one request it was handed: its call, and the refusal its hooks or store threw. */
interface Handed {
  call: TusCall;
  failure?: { error: unknown };
}

/**
 * @tus/server behind the service's own checks (tus-gate.ts), through its public API alone: each
 * request is handed over as a web Request (`handleWeb`) built from the node request's method, URL
 * and headers, without a body. The bytes never pass through tus: the store reads them from the node
 * request itself (TusStore.readFrom: a web stream and back costs about 40 % more CPU per
 * byte, bench/tus-upload.ts), registered here for the one write this request makes. tus's hooks
 * find the request's call by the Request they are given: the naming hook returns the id the
 * creation reserved, the creation hook writes the owner into the upload's metadata, the completion
 * hook makes the file a dms-file, and the error hook keeps the refusal so that the answer is the
 * platform's error (tus-errors.ts). A success is written as tus answered it, without its CORS
 * headers (the gateway's CORS answers for the origin) and without the service's metadata keys.
 */
export class TusAdapter {
  readonly #store: TusStore;
  readonly #server: Server;
  readonly #handed = new WeakMap<Request, Handed>();

  constructor(options: TusAdapterOptions) {
    this.#store = options.store;
    this.#server = new Server({
      path: TUS_PATH,
      datastore: options.store,
      locker: options.locker,
      relativeLocation: true,
      maxSize: options.maxUploadBytes,
      // a finished upload is a dms-file: its record goes, the file stays (answered before tus)
      disableTerminationForFinishedUploads: true,
      namingFunction: (req) => this.#callOf(req).id,
      onUploadCreate: (req, upload) => Promise.resolve({ metadata: ownedMetadata(upload.metadata, ownerOf(this.#callOf(req).ctx)) }),
      onUploadFinish: (req, upload) => options.finish(this.#callOf(req), upload),
      onResponseError: (req, error) => {
        const handed = this.#handed.get(req);
        if (handed) handed.failure ??= { error };
        return undefined;
      },
    });
  }

  /** Hands a request to @tus/server and writes its answer: a success as it is, a refusal thrown as the platform's error. */
  async forward(req: IncomingMessage, res: ServerResponse, call: TusCall | undefined): Promise<void> {
    const request = webRequestOf(req);
    const handed: Handed | undefined = call ? { call } : undefined;
    if (handed) this.#handed.set(request, handed);
    // the bytes of a PATCH, or of a creation with upload, go to the store straight from the node request
    const reading = call !== undefined && hasBody(req);
    if (reading) this.#store.readFrom(call.id, req);
    let answer: Response;
    try {
      answer = await this.#server.handleWeb(request);
    } finally {
      // a request tus refused before writing (a wrong offset, a lock held) is never read by a later write
      if (reading) this.#store.unread(call.id, req);
    }
    if (answer.status >= 400) {
      const error = handed?.failure?.error;
      const domain = error instanceof DomainError ? error : domainErrorOfTus(error, answer.status);
      throw domain ?? error ?? new Error(`tus answered ${answer.status}`);
    }
    // a terminated upload reserves nothing more, before its client hears that it is gone
    if (req.method === 'DELETE' && call) await releaseUpload(call.ctx.em, call.id);
    for (const [name, value] of answer.headers) {
      if (!/^access-control-/i.test(name) && name.toLowerCase() !== 'upload-metadata') res.setHeader(name, value);
    }
    // a HEAD tells the upload's metadata as the client gave it, not the service's own keys
    if (req.method === 'HEAD' && call && answer.headers.has('upload-metadata')) {
      const shown = clientMetadataOf((await this.#store.info(call.id))?.metadata);
      if (shown) res.setHeader('Upload-Metadata', shown);
    }
    res.setHeader('Cache-Control', 'no-store');
    const body = Buffer.from(await answer.arrayBuffer());
    res.statusCode = answer.status;
    res.end(body.length > 0 ? body : undefined);
  }

  #callOf(req: Request): TusCall {
    const handed = this.#handed.get(req);
    if (!handed) throw new Error('a tus hook ran for a request the service did not check');
    return handed.call;
  }
}

/** The request tus is handed: the node request's method, path and headers, and no body (the store reads it). */
function webRequestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return new Request(new URL(req.url ?? '/', 'http://dms'), { method: req.method ?? 'GET', headers });
}
