/**
 * The typed client of the platform's gateway, generated from its API document (libs/client/README.md).
 * Every schema of the document is a type of the same name (`Branch`, `BranchCreate`, `BranchPage`,
 * `ErrorBody`, …), next to `paths`, `operations` and `components`.
 */
export { API_KEY_HEADER, SESSION_COOKIE, createPlatformClient, type PlatformClient, type PlatformClientOptions } from './client.ts';
export { isErrorBody } from './error-body.ts';
export { multipartBody, type MultipartFields } from './multipart.ts';
export { OPERATION_CREDENTIALS } from './operation-credentials.ts';
export type * from './schema.d.ts';
