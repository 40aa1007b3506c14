/** Where a run reads a file's bytes from: the store's copy to a local path (files/storage.ts FileStorage, either store). */
export interface FileSource {
  copyTo(storedFileName: string, path: string): Promise<void>;
}
