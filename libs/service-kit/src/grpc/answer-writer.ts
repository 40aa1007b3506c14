import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import type { MessageEncoder } from '@platform/kit/resource/resource.ts';

/**
 * The writer every answer this process serialises through `answersWith` is encoded with. The
 * generated serializers make a writer per message, whose buffer grows from nothing each time (128
 * bytes, then 256, 512 for a record), and copy the bytes twice (`finish()`, then `Buffer.from`).
 * Encoding is synchronous and `finish()` hands back a copy and empties the writer, so one writer
 * serves every answer (bench/README.md, "Work the platform's own code repeated per request").
 */
const answerWriter = new BinaryWriter();

/**
 * The bytes of a message, as the generated `responseSerialize` writes them, encoded with the
 * process's writer; the Buffer is a view of `finish()`'s copy, not a second copy. An encoder that
 * throws half-way leaves nothing in the writer for the next answer.
 */
export function encodeAnswer<M>(encoder: MessageEncoder<M>, message: M): Buffer {
  let bytes: Uint8Array;
  try {
    bytes = encoder.encode(message, answerWriter).finish();
  } catch (error) {
    answerWriter.finish();
    throw error;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A service definition whose named methods serialise their answers with `encodeAnswer`; the others,
 * and everything else of each method, are the generated ones. The encoder must be the message the
 * method answers (its generated `responseSerialize` encodes with it): test/answer-writer.test.ts
 * compares the bytes.
 *
 * @example
 * server.addService(answersWith(BranchServiceService, { getBranch: Branch, createBranch: Branch }), implementation);
 */
export function answersWith(definition: ServiceDefinition, encoders: Readonly<Record<string, MessageEncoder<never>>>): ServiceDefinition {
  const served: Record<string, MethodDefinition<unknown, unknown>> = { ...definition };
  for (const [name, encoder] of Object.entries(encoders)) {
    const method = definition[name];
    if (!method) throw new Error(`the service has no method ${name}`);
    const responseSerialize = (message: unknown): Buffer => encodeAnswer(encoder as MessageEncoder<unknown>, message);
    served[name] = { ...method, responseSerialize };
  }
  return served;
}
