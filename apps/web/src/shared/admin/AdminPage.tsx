import type { ComponentProps, ReactNode } from 'react';
import { AdminActions } from './parts';
import { SearchFilter } from './SearchFilter';
import './admin.css';

/**
 * The frame of every administration screen: a title, the filters on the left, the actions (add, ...) on the
 * right, then the content (a table, a tree). Screens stay in charge of their own data and dialogs.
 *
 * Most screens open their filters with a search box and their actions with refresh (and add): `search` renders
 * that SearchFilter before `filters`, and `onRefresh` (with `add`) renders the AdminActions around `actions`,
 * so a screen states only what is its own. Without them `filters` and `actions` stand alone as given.
 */
export function AdminPage({
  title,
  search,
  filters,
  onRefresh,
  add,
  actions,
  children,
  testId,
}: {
  title: ReactNode;
  /** The search box that opens the filters. */
  search?: ComponentProps<typeof SearchFilter>;
  filters?: ReactNode;
  /** Given, the actions are AdminActions (refresh, then `actions`, then `add`). */
  onRefresh?: () => unknown;
  add?: ComponentProps<typeof AdminActions>['add'];
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}): ReactNode {
  const allFilters = search ? (
    <>
      <SearchFilter {...search} />
      {filters}
    </>
  ) : (
    filters
  );
  const allActions = onRefresh ? (
    <AdminActions onRefresh={onRefresh} add={add}>
      {actions}
    </AdminActions>
  ) : (
    actions
  );
  return (
    <section className="admin-page" data-testid={testId}>
      <header className="admin-page__head">
        <h2 className="admin-page__title">{title}</h2>
      </header>
      {(allFilters || allActions) && (
        <div className="admin-page__bar">
          <div className="admin-page__filters">{allFilters}</div>
          <div className="admin-page__actions">{allActions}</div>
        </div>
      )}
      <div className="admin-page__body">{children}</div>
    </section>
  );
}
