/**
 * The category tree as a WAI-ARIA tree view: one tab stop (the focused item), arrow keys to move
 * (Up/Down the visible items, Right opens or steps into, Left closes or steps out), Home/End,
 * Enter or Space selects; a click on the triangle opens and closes, on the name selects. The first
 * item, "All files", stands for no category.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useT } from '../../shell/i18n.tsx';
import { documentsMessages } from './documents.messages.ts';
import { visibleNodes, type CategoryNode } from './category-tree.ts';

/** The "All files" item's key in the walk order. */
const ALL = 0;

export interface CategoryTreeProps {
  roots: readonly CategoryNode[];
  selected: number | undefined;
  onSelect: (categoryId: number | undefined) => void;
}

export function CategoryTree({ roots, selected, onSelect }: CategoryTreeProps) {
  const t = useT(documentsMessages);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const [focused, setFocused] = useState<number>(selected ?? ALL);
  const items = useRef(new Map<number, HTMLElement>());

  const order = useMemo(() => [ALL, ...visibleNodes(roots, expanded).map((node) => node.category.id)], [roots, expanded]);
  const nodeOf = useMemo(() => {
    const map = new Map<number, CategoryNode>();
    const walk = (nodes: readonly CategoryNode[]) => nodes.forEach((node) => (map.set(node.category.id, node), walk(node.children)));
    walk(roots);
    return map;
  }, [roots]);
  // a category selected elsewhere (just made inside another) is shown: its ancestors open
  useEffect(() => {
    const ancestors: number[] = [];
    for (let at = selected === undefined ? undefined : nodeOf.get(selected)?.parent; at; at = at.parent) ancestors.push(at.category.id);
    setExpanded((current) => (ancestors.every((id) => current.has(id)) ? current : new Set([...current, ...ancestors])));
  }, [selected, nodeOf]);
  // the tab stop stays on an item that is shown
  const tabStop = order.includes(focused) ? focused : ALL;

  const focus = (id: number) => {
    setFocused(id);
    items.current.get(id)?.focus();
  };
  const toggle = (id: number, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent, id: number) => {
    const at = order.indexOf(id);
    const node = nodeOf.get(id);
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case 'ArrowDown':
        handled();
        if (at < order.length - 1) focus(order[at + 1]!);
        break;
      case 'ArrowUp':
        handled();
        if (at > 0) focus(order[at - 1]!);
        break;
      case 'Home':
        handled();
        focus(order[0]!);
        break;
      case 'End':
        handled();
        focus(order[order.length - 1]!);
        break;
      case 'ArrowRight':
        handled();
        if (node && node.children.length > 0) {
          if (!expanded.has(id)) toggle(id, true);
          else focus(node.children[0]!.category.id);
        }
        break;
      case 'ArrowLeft':
        handled();
        if (node && expanded.has(id)) toggle(id, false);
        else if (node?.parent) focus(node.parent.category.id);
        break;
      case 'Enter':
      case ' ':
        handled();
        onSelect(id === ALL ? undefined : id);
        break;
    }
  };

  const itemProps = (id: number) => ({
    role: 'treeitem',
    tabIndex: id === tabStop ? 0 : -1,
    'aria-selected': (selected ?? ALL) === id,
    ref: (element: HTMLElement | null) => {
      if (element) items.current.set(id, element);
      else items.current.delete(id);
    },
    onKeyDown: (event: KeyboardEvent) => onKeyDown(event, id),
    onFocus: (event: { target: EventTarget; currentTarget: EventTarget }) => {
      if (event.target === event.currentTarget) setFocused(id);
    },
  });

  const render = (nodes: readonly CategoryNode[]): ReactNode =>
    nodes.map((node) => {
      const id = node.category.id;
      const open = expanded.has(id);
      const parent = node.children.length > 0;
      return (
        <li key={id} {...itemProps(id)} aria-level={node.level} aria-expanded={parent ? open : undefined} className="doc-tree-item">
          <span className="doc-tree-row">
            <span className="doc-tree-twisty" aria-hidden="true" onClick={parent ? () => toggle(id) : undefined}>
              {parent ? (open ? '▾' : '▸') : ''}
            </span>
            <span className="doc-tree-label" onClick={() => (focus(id), onSelect(id))}>
              {node.category.categoryName}
            </span>
          </span>
          {parent && open ? <ul role="group">{render(node.children)}</ul> : null}
        </li>
      );
    });

  return (
    <ul role="tree" aria-label={t('categories')} className="doc-tree">
      <li {...itemProps(ALL)} aria-level={1} className="doc-tree-item">
        <span className="doc-tree-row">
          <span className="doc-tree-twisty" aria-hidden="true" />
          <span className="doc-tree-label" onClick={() => (focus(ALL), onSelect(undefined))}>
            {t('allFiles')}
          </span>
        </span>
      </li>
      {render(roots)}
    </ul>
  );
}
