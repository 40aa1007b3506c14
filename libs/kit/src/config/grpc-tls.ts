import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

/**
 * Mutual TLS between the platform's processes over gRPC (GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY:
 * PEM files). Every service's gRPC server then asks each caller for a certificate signed by the CA,
 * and every channel (the gateway's, and bpm-svc's and dms-svc's to core-svc) presents its own and
 * checks the server's against the CA and the name it dials.
 */
export interface GrpcTls {
  /** The CA that signs every process's certificate (PEM). */
  ca: Buffer;
  /** This process's certificate chain (PEM), presented as server and as client. */
  cert: Buffer;
  /** Its private key (PEM). */
  key: Buffer;
}

const VARIABLES = ['GRPC_TLS_CA', 'GRPC_TLS_CERT', 'GRPC_TLS_KEY'] as const;

/**
 * Reads the three files named by GRPC_TLS_CA, GRPC_TLS_CERT and GRPC_TLS_KEY, or none: undefined
 * when all three are unset (plaintext gRPC). A partial set, a file that cannot be read or parsed,
 * or a key that is not the certificate's refuses the start, naming the variable.
 *
 * @example
 * readGrpcTls({ GRPC_TLS_CA: '/etc/platform/grpc-tls/ca.crt', GRPC_TLS_CERT: '…/tls.crt', GRPC_TLS_KEY: '…/tls.key' })
 */
export function readGrpcTls(env: Record<string, string | undefined>): GrpcTls | undefined {
  const set = VARIABLES.filter((name) => env[name]);
  if (set.length === 0) return undefined;
  if (set.length < VARIABLES.length) {
    const missing = VARIABLES.filter((name) => !env[name]);
    throw new ConfigError(`${VARIABLES.join(', ')} go together (all three or none): ${set.join(', ')} set, ${missing.join(', ')} missing`);
  }
  const [ca, cert, key] = VARIABLES.map((name) => readPem(name, env[name]!));
  certificateOf('GRPC_TLS_CA', ca!);
  const certificate = certificateOf('GRPC_TLS_CERT', cert!);
  let privateKey;
  try {
    privateKey = createPrivateKey(key!);
  } catch (error) {
    throw new ConfigError(`GRPC_TLS_KEY (${env.GRPC_TLS_KEY}) is not a PEM private key: ${(error as Error).message}`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new ConfigError(`GRPC_TLS_KEY (${env.GRPC_TLS_KEY}) is not the private key of GRPC_TLS_CERT (${env.GRPC_TLS_CERT})`);
  }
  return { ca: ca!, cert: cert!, key: key! };
}

function readPem(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${name}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function certificateOf(name: string, pem: Buffer): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (error) {
    throw new ConfigError(`${name} is not a PEM certificate: ${(error as Error).message}`);
  }
}
