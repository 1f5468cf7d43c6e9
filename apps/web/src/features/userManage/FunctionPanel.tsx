import { useMemo, useState, type ReactNode } from 'react';
import { LockOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Tag, Tooltip, Tree, Typography, type TreeDataNode } from 'antd';
import type { FunctionItem } from '@nest/contracts';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { buildFunctionTree, canToggle, filterFunctionTree, functionIdsOf, type FunctionNode } from './functionTree';

const REASON: Record<'notHeld' | 'superOnly' | 'deleted', MessageKey> = {
  notHeld: 'userManage.fun.notHeld',
  superOnly: 'userManage.fun.superOnly',
  deleted: 'userManage.fun.deleted',
};

/**
 * The function assignment panel: a tree of what each function opens (menu entries with the calls of their
 * screen), with a box per function. Boxes the editor may not change are disabled with the reason.
 */
export function FunctionPanel({
  funs,
  value,
  onChange,
  editorFunctions,
  readOnly,
}: {
  /** The function list (/fun/list), or null when the editor may not read it. */
  funs: FunctionItem[] | null;
  value: string[];
  onChange: (next: string[]) => void;
  editorFunctions: readonly string[];
  readOnly: boolean;
}): ReactNode {
  const { t, lang } = useI18n();
  const [filter, setFilter] = useState('');
  const tree = useMemo(() => buildFunctionTree(funs ?? [], lang), [funs, lang]);
  const shown = useMemo(() => filterFunctionTree(tree, filter), [tree, filter]);
  const checked = useMemo(() => new Set(value), [value]);

  const verdict = (n: FunctionNode) => (n.funId ? canToggle(n.funId, { editorFunctions, checked: checked.has(n.funId), deleted: n.deleted }) : 'ok');

  /** Adds or removes every function of a screen the editor may change. */
  const setScreen = (n: FunctionNode, on: boolean) => {
    const next = new Set(value);
    for (const id of functionIdsOf(n)) {
      if (canToggle(id, { editorFunctions, checked: next.has(id), deleted: findDeleted(tree, id) }) !== 'ok') continue;
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange([...next]);
  };

  const groupTitle = (n: FunctionNode) => (n.key === 'group:special' ? t('userManage.fun.special') : n.key === 'group:other' ? t('userManage.fun.other') : n.title);

  const toData = (n: FunctionNode): TreeDataNode => {
    const why = verdict(n);
    const title = (
      <span className="fun-node" data-testid={n.funId ? `fun-node-${n.funId}` : undefined}>
        <span className={n.kind === 'group' ? 'fun-node__group' : 'fun-node__name'}>{n.kind === 'group' ? groupTitle(n) : n.title}</span>
        {n.funId && <Typography.Text code className="fun-node__id">{n.funId}</Typography.Text>}
        {n.kind === 'menu' && n.paths[0] && <span className="fun-node__path">{t('userManage.fun.opens', { path: n.paths[0] })}</span>}
        {n.kind === 'call' && <span className="fun-node__path">{n.paths.join(' · ')}</span>}
        {n.deleted && <Tag className="fun-node__tag">{t('userManage.fun.deleted')}</Tag>}
        {why !== 'ok' && why !== 'deleted' && (
          <Tooltip title={t(REASON[why])}>
            <LockOutlined className="fun-node__lock" />
          </Tooltip>
        )}
        {!readOnly && n.kind === 'menu' && n.children.length > 0 && (
          <span className="fun-node__bulk">
            <Button type="link" size="small" onClick={(e) => (e.stopPropagation(), setScreen(n, true))}>
              {t('userManage.fun.selectScreen')}
            </Button>
            <Button type="link" size="small" onClick={(e) => (e.stopPropagation(), setScreen(n, false))}>
              {t('userManage.fun.clearScreen')}
            </Button>
          </span>
        )}
      </span>
    );
    return {
      key: n.key,
      title,
      checkable: n.funId !== null,
      selectable: false,
      disableCheckbox: readOnly || why !== 'ok',
      children: n.children.map(toData),
    };
  };

  return (
    <div className="fun-panel" data-testid="function-panel">
      <Typography.Paragraph type="secondary" className="fun-panel__hint">
        {t('userManage.fun.hint')}
      </Typography.Paragraph>
      {funs === null && <Alert type="info" showIcon message={t('userManage.fun.noPermission')} className="fun-panel__alert" />}
      <Space className="fun-panel__bar">
        <Input.Search allowClear placeholder={t('userManage.fun.search')} onChange={(e) => setFilter(e.target.value)} style={{ width: 260 }} data-testid="function-filter" />
        <span>{t('userManage.fun.selected', { count: value.length })}</span>
      </Space>
      <div className="fun-panel__tree">
        <Tree
          checkable
          checkStrictly
          selectable={false}
          defaultExpandAll
          key={filter ? `f:${filter}` : 'all'}
          treeData={shown.map(toData)}
          checkedKeys={{ checked: value, halfChecked: [] }}
          onCheck={(keys) => {
            const list = Array.isArray(keys) ? keys : keys.checked;
            onChange(list.map(String).filter((k) => !k.startsWith('group:')));
          }}
        />
      </div>
    </div>
  );
}

function findNode(nodes: readonly FunctionNode[], id: string): FunctionNode | undefined {
  for (const n of nodes) {
    if (n.funId === id) return n;
    const below = findNode(n.children, id);
    if (below) return below;
  }
  return undefined;
}

const findDeleted = (nodes: readonly FunctionNode[], id: string): boolean => findNode(nodes, id)?.deleted ?? false;
