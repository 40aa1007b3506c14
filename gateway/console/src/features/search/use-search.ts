/**
 * The global search's answer for what the box holds: GET /api/search?q= through the typed client,
 * after a pause in typing, the answer of an older term aborted when a newer one is asked.
 */
import { useEffect, useState } from 'react';
import type { paths } from '@platform/client/schema.d.ts';
import { answer, platform } from '../../shell/api.ts';

export type SearchAnswer = paths['/api/search']['get']['responses'][200]['content']['application/json'];

/** Milliseconds of no typing before the search is asked. */
const PAUSE_MS = 150;

export interface SearchState {
  /** The term the answer (or the failure) is for. */
  term: string;
  answer: SearchAnswer | undefined;
  error: string | undefined;
  searching: boolean;
}

const IDLE: SearchState = { term: '', answer: undefined, error: undefined, searching: false };

export function useSearch(text: string): SearchState {
  const [state, setState] = useState<SearchState>(IDLE);
  const term = text.trim();
  useEffect(() => {
    if (term === '') {
      setState(IDLE);
      return;
    }
    setState((before) => ({ ...before, searching: true }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      answer(platform.GET('/api/search', { params: { query: { q: term } }, signal: controller.signal })).then(
        (found) => setState({ term, answer: found, error: undefined, searching: false }),
        (failure: unknown) => {
          if (!controller.signal.aborted)
            setState({ term, answer: undefined, error: failure instanceof Error ? failure.message : String(failure), searching: false });
        },
      );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);
  return state;
}
