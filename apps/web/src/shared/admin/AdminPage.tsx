import type { ReactNode } from 'react';
import './admin.css';

/**
 * The frame of every administration screen: a title, the filters on the left, the actions (add, ...) on the
 * right, then the content (a table, a tree). Screens stay in charge of their own data and dialogs.
 */
export function AdminPage({
  title,
  filters,
  actions,
  children,
  testId,
}: {
  title: ReactNode;
  filters?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}): ReactNode {
  return (
    <section className="admin-page" data-testid={testId}>
      <header className="admin-page__head">
        <h2 className="admin-page__title">{title}</h2>
      </header>
      {(filters || actions) && (
        <div className="admin-page__bar">
          <div className="admin-page__filters">{filters}</div>
          <div className="admin-page__actions">{actions}</div>
        </div>
      )}
      <div className="admin-page__body">{children}</div>
    </section>
  );
}
