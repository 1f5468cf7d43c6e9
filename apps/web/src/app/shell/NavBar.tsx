import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Popover } from 'antd';
import DownOutlined from '@ant-design/icons/DownOutlined';
import ExportOutlined from '@ant-design/icons/ExportOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import { useLocation, useNavigate } from 'react-router-dom';
import { SYSTEM_SETTINGS_MENU_SORT, SYSTEM_SET_ENTRY, type MenuItem } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { BASENAME } from '../basename';
import { openDialog } from '../dialogs/store';
import { isActive, visibleChildren } from '../menu/menu';
import { MenuIcon } from './icons';

/** The menu entry whose choice shows a warning instead of navigating (SPEC section 2). */
export const SOLUTION_ENTRY = 'solution';

interface ContextMenuState {
  x: number;
  y: number;
  path: string;
}

/** Choosing a menu entry: SPEC header rules. */
export function useChooseEntry(): (item: MenuItem) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { t } = useI18n();
  return (item) => {
    if (!item.name) return;
    if (item.name === SYSTEM_SET_ENTRY.name) {
      openDialog('settings');
      return;
    }
    if (item.name === SOLUTION_ENTRY) {
      notify().warning(t('header.nav.solutionWarning'));
      return;
    }
    if (!item.path || item.path === pathname) return;
    void navigate(item.path);
  };
}

/** Opens a menu path in a new browser tab (context menu action). */
export const openInNewTab = (path: string): void => {
  window.open(`${window.location.origin}${BASENAME}${path}`, '_blank', 'noopener');
};

function NavContextMenu({ state, onClose }: { state: ContextMenuState; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  useEffect(() => {
    const close = () => onClose();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('mousedown', close);
    window.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  const root = document.getElementById('app-root') ?? document.body;
  return createPortal(
    <div className="nav-context-menu" role="menu" style={{ left: state.x, top: state.y }} data-testid="nav-context-menu">
      <button
        type="button"
        role="menuitem"
        data-testid="nav-open-new-tab"
        onMouseDown={(e) => e.stopPropagation()}
        onClick={() => {
          openInNewTab(state.path);
          onClose();
        }}
      >
        <ExportOutlined />
        <span>{t('header.nav.openInNewTab')}</span>
      </button>
    </div>,
    root,
  );
}

interface NavProps {
  items: MenuItem[];
  funList: readonly string[];
  side: 'left' | 'right';
}

/** One side of the header navigation. */
export function NavBar({ items, funList, side }: NavProps): ReactNode {
  const { tx } = useI18n();
  const { pathname } = useLocation();
  const choose = useChooseEntry();
  const [openName, setOpenName] = useState<string | null>(null);
  const [context, setContext] = useState<ContextMenuState | null>(null);

  const onContext = (item: MenuItem, hasChildren: boolean) => (e: MouseEvent) => {
    e.preventDefault();
    if (hasChildren || !item.path) return;
    setOpenName(null);
    setContext({ x: e.clientX, y: e.clientY, path: item.path });
  };

  const pick = (item: MenuItem) => {
    setOpenName(null);
    choose(item);
  };

  return (
    <nav className={`nav-bar nav-${side}`}>
      {items.map((item) => {
        const children = visibleChildren(item, funList);
        const popoverEntries = item.sort === SYSTEM_SETTINGS_MENU_SORT ? [...children, SYSTEM_SET_ENTRY] : children;
        const active = isActive(item, pathname);
        const button = (
          <button
            type="button"
            className={`nav-item${active ? ' is-active' : ''}`}
            data-testid={`nav-${item.name}`}
            aria-current={active ? 'page' : undefined}
            onClick={() => pick(item)}
            onContextMenu={onContext(item, popoverEntries.length > 0)}
          >
            <MenuIcon name={item.meta.icon} />
            <span className="nav-item-title">{tx(item.meta.title)}</span>
            {popoverEntries.length > 0 && <DownOutlined className="nav-item-caret" />}
          </button>
        );
        if (popoverEntries.length === 0) return <span key={item.name}>{button}</span>;
        return (
          <Popover
            key={item.name}
            trigger="hover"
            placement="bottom"
            arrow={false}
            open={openName === item.name}
            onOpenChange={(open) => setOpenName(open ? item.name : null)}
            classNames={{ root: 'nav-popover' }}
            content={
              <div className="nav-popover-list" role="menu">
                {popoverEntries.map((child) => {
                  const settings = child.name === SYSTEM_SET_ENTRY.name;
                  return (
                    <button
                      key={child.name}
                      type="button"
                      role="menuitem"
                      className={`nav-child${settings ? ' is-settings' : ''}${child.path && child.path === pathname ? ' is-active' : ''}`}
                      data-testid={`nav-${child.name}`}
                      onClick={() => pick(child)}
                      onContextMenu={onContext(child, settings)}
                    >
                      {settings && <SettingOutlined />}
                      {tx(child.meta.title)}
                    </button>
                  );
                })}
              </div>
            }
          >
            {button}
          </Popover>
        );
      })}
      {context && <NavContextMenu state={context} onClose={() => setContext(null)} />}
    </nav>
  );
}
