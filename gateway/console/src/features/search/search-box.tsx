/**
 * The global search in the banner (docs/adr/0116-global-search-fans-out.md): a combobox whose
 * listbox shows the answer of GET /api/search by kind, each hit an option that opens its record's
 * page. Arrow keys move through the options, Enter opens the chosen one (the first when none is
 * chosen), Escape closes the list and then clears the box (as a search box does); Ctrl+K, Cmd+K and "/" bring the focus
 * here from anywhere (search-shortcut.ts).
 */
import { useContext, useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useManifest } from '../../resources/manifest.tsx';
import { searchMessages } from './search-messages.ts';
import { SEARCH_SHORTCUTS, useSearchShortcut } from './search-shortcut.ts';
import { useSearch, type SearchAnswer } from './use-search.ts';
import './search.css';

type Group = SearchAnswer['groups'][number];
type Option = { entity: Group['entity']; hit: Group['hits'][number] };

export function SearchBox() {
  const t = useT(searchMessages);
  const navigate = useNavigate();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const language = useContext(LanguageContext);
  const resources = useManifest().resources;
  // a kind is a resource path: named by the resource's label catalogue, as its menu entry is
  const kindLabel = (kind: string) => resources.find((resource) => resource.path === kind)?.labels.other[language] ?? kind;
  const search = useSearch(text);
  const current = search.term === text.trim();
  const groups = current ? (search.answer?.groups.filter((group) => group.hits.length > 0) ?? []) : [];
  const options: Option[] = groups.flatMap((group) => group.hits.map((hit) => ({ entity: group.entity, hit })));
  useEffect(() => setActive(-1), [search.answer]);

  useSearchShortcut(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
    setOpen(true);
  });

  const optionId = (index: number) => `${id}-option-${index}`;
  const listId = `${id}-list`;
  const showList = open && options.length > 0;
  const showPanel = open && text.trim() !== '';

  const go = (option: Option | undefined) => {
    if (!option) return;
    setOpen(false);
    setText('');
    void navigate(`/${option.entity}/${option.hit.id}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index < 0 && step < 0 ? options.length - 1 : (index + step + options.length) % options.length));
    } else if (event.key === 'Enter') {
      if (!current || options.length === 0) return;
      event.preventDefault();
      go(options[active] ?? options[0]);
    } else if (event.key === 'Escape') {
      // the first Escape closes the list (and keeps the term: a search box would clear it), the next clears the box
      if (!open || text === '') return;
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  // the list closes when the focus leaves the box (the options keep it: they take no focus)
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  };

  let note: string | undefined;
  if (search.searching || !current) note = t('searching');
  else if (search.error) note = t('failed', { message: search.error });
  else if (search.answer && options.length === 0) note = t('noResults', { q: search.term });
  const partial = current && search.answer?.partial ? t('partial', { kinds: search.answer.unanswered.map((kind) => kindLabel(kind)).join(', ') }) : undefined;
  // what a screen reader hears once an answer is in
  const status = text.trim() === '' || note === t('searching') ? '' : [note ?? t('found', { count: options.length }), partial].filter(Boolean).join(' ');

  let index = -1;
  return (
    <div className="global-search" role="search" onBlur={onBlur}>
      <label htmlFor={`${id}-input`} className="visually-hidden">
        {t('label')}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        placeholder={`${t('placeholder')} (${t('shortcut')})`}
        aria-keyshortcuts={SEARCH_SHORTCUTS}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-expanded={showList}
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <div role="status" className="visually-hidden">
        {status}
      </div>
      <div className="global-search-panel" hidden={!showPanel}>
        <div role="listbox" id={listId} aria-label={t('results')} hidden={!showList}>
          {groups.map((group) => (
            <div key={group.entity} role="group" aria-labelledby={`${id}-${group.entity}`}>
              <div id={`${id}-${group.entity}`} className="global-search-kind">
                {kindLabel(group.entity)}
                {group.more ? ` (${t('more')})` : ''}
              </div>
              {group.hits.map((hit) => {
                index += 1;
                const mine = index;
                return (
                  <div
                    key={hit.id}
                    id={optionId(mine)}
                    role="option"
                    aria-selected={mine === active}
                    className="global-search-option"
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => setActive(mine)}
                    onClick={() => go({ entity: group.entity, hit })}
                  >
                    <span className="name">{hit.name}</span>
                    {hit.code ? <span className="code">{hit.code}</span> : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {note ? <p className="global-search-note">{note}</p> : null}
        {partial ? <p className="global-search-note">{partial}</p> : null}
      </div>
    </div>
  );
}
