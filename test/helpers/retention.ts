/**
 * A retention run of one tenant, asked of dms-svc over gRPC as the worker's job does it (the
 * platform's internal credential by default): the tests' way to run retention now rather than on
 * its interval.
 */
import { credentials, Metadata } from '@grpc/grpc-js';
import { TokenService } from '@platform/kit/auth/jwt.ts';
import { DmsRetentionPolicyServiceClient, type RunDmsRetentionResponse } from '@platform/kit/gen/platform/dms/v1/dms_retention_policy.ts';
import { platform } from './platform.ts';

const tokens = new TokenService(platform.jwtSecret);

function bearer(token: string): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

/** One retention run of one tenant (the tenant keeps runs of other test files out of this one's way). */
export function runRetention(crProcessId: number, token = tokens.internalToken('test')): Promise<RunDmsRetentionResponse> {
  const client = new DmsRetentionPolicyServiceClient(platform.grpc.dms, credentials.createInsecure());
  return new Promise((resolve, reject) =>
    client.runDmsRetention({ crProcessId }, bearer(token), (error, response) => {
      client.close();
      if (error || !response) reject(error ?? new Error('no response'));
      else resolve(response);
    }),
  );
}
