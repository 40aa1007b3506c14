/**
 * The category tree built from the flat dms-category list (each names its `parentId`), and the
 * order a keyboard walks it in: the visible items top to bottom, as a tree view shows them.
 */
import type { DmsCategory } from './dms.api.ts';

export interface CategoryNode {
  category: DmsCategory;
  children: CategoryNode[];
  level: number;
  parent: CategoryNode | undefined;
}

/** The top-level nodes, children sorted by name; a category whose parent is not in the list is shown at the top. */
export function buildTree(categories: readonly DmsCategory[]): CategoryNode[] {
  const byId = new Map<number, CategoryNode>();
  for (const category of categories) byId.set(category.id, { category, children: [], level: 1, parent: undefined });
  const roots: CategoryNode[] = [];
  for (const node of byId.values()) {
    const parent = node.category.parentId == null ? undefined : byId.get(node.category.parentId);
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
  }
  const byName = (a: CategoryNode, b: CategoryNode) => a.category.categoryName.localeCompare(b.category.categoryName);
  const settle = (nodes: CategoryNode[], level: number) => {
    nodes.sort(byName);
    for (const node of nodes) {
      node.level = level;
      settle(node.children, level + 1);
    }
  };
  settle(roots, 1);
  return roots;
}

/** The nodes a user sees, in order: a node's children only when it is expanded. */
export function visibleNodes(roots: readonly CategoryNode[], expanded: ReadonlySet<number>): CategoryNode[] {
  const out: CategoryNode[] = [];
  const walk = (nodes: readonly CategoryNode[]) => {
    for (const node of nodes) {
      out.push(node);
      if (expanded.has(node.category.id)) walk(node.children);
    }
  };
  walk(roots);
  return out;
}

/** A category's name with its ancestors' (`Contracts / 2026`), for pickers. */
export function pathName(category: DmsCategory, byId: ReadonlyMap<number, DmsCategory>): string {
  const names: string[] = [];
  const seen = new Set<number>();
  for (let at: DmsCategory | undefined = category; at && !seen.has(at.id); at = at.parentId == null ? undefined : byId.get(at.parentId)) {
    seen.add(at.id);
    names.unshift(at.categoryName);
  }
  return names.join(' / ');
}
