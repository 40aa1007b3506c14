import { credentials, ServerCredentials, type ChannelCredentials } from '@grpc/grpc-js';
import type { GrpcTls } from '../config/grpc-tls.ts';

/**
 * A service's gRPC server credentials: with GRPC_TLS_* set, TLS that requires every caller to
 * present a certificate the CA signed (`checkClientCertificate`); else plaintext.
 *
 * @example
 * server.bindAsync('0.0.0.0:50052', serverCredentials(config.grpcTls), callback);
 */
export function serverCredentials(tls: GrpcTls | undefined): ServerCredentials {
  if (!tls) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(tls.ca, [{ cert_chain: tls.cert, private_key: tls.key }], true);
}

/**
 * A channel's credentials: with GRPC_TLS_* set, TLS that checks the server's certificate against the
 * CA and the host name dialled (`core-svc` of `core-svc:50051`: the certificate must name it) and
 * presents this process's certificate; else plaintext.
 *
 * @example
 * new Client(config.grpc.core, channelCredentials(config.grpcTls));
 */
export function channelCredentials(tls: GrpcTls | undefined): ChannelCredentials {
  if (!tls) return credentials.createInsecure();
  return credentials.createSsl(tls.ca, tls.key, tls.cert);
}
