/**
 * The manifest of resources (GET /console/resources.json), fetched once when the console opens:
 * every list, record page, form and menu entry of the CRUD set is built from it, so a resource the
 * registry gains appears here without console code.
 */
import { createContext, useContext } from 'react';
import type { ConsoleManifest, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';

/** Where the gateway serves the manifest (gateway/src/console). */
export const MANIFEST_PATH = '/console/resources.json' as const;

/** The manifest, once per page load (a second call answers the same promise). */
let loading: Promise<ConsoleManifest> | undefined;
export function loadManifest(): Promise<ConsoleManifest> {
  loading ??= answer(platform.GET(MANIFEST_PATH)).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The loaded manifest, for every page under the shell. */
export const ManifestContext = createContext<ConsoleManifest | null>(null);

/** The manifest; only under the shell, which renders nothing before it has it. */
export function useManifest(): ConsoleManifest {
  const manifest = useContext(ManifestContext);
  if (!manifest) throw new Error('useManifest before the manifest loaded');
  return manifest;
}

/** The resource of `path`, or undefined when the manifest has none (an unknown path in the address bar). */
export function useResourceDef(path: string | undefined): ConsoleResource | undefined {
  return useManifest().resources.find((resource) => resource.path === path);
}
