import { useEffect, useRef } from 'react';

/**
 * A page's h1, focused when the page opens (a screen reader announces the new page, and the next
 * Tab starts inside it) and named in the document's title.
 */
export function PageTitle({ children, title }: { children: React.ReactNode; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // focus once, when the page opens: a title that changes later (a record loaded, the language switched) moves nothing
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1} className="page-title">
      {children}
    </h1>
  );
}
