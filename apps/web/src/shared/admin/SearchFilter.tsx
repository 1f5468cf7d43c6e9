import { useState, type ReactNode } from 'react';
import { Input } from 'antd';
import { useI18n } from '../i18n';

/**
 * The search box of an administration screen's filter bar: typing edits the text only, the search runs on
 * Enter or the Search button (trimmed), and emptying the box (clear icon or keys) searches for everything again.
 */
export function SearchFilter({
  placeholder,
  onSearch,
  width = 300,
  testId,
}: {
  placeholder: string;
  onSearch: (text: string) => void;
  width?: number;
  testId?: string;
}): ReactNode {
  const { t } = useI18n();
  const [text, setText] = useState('');
  return (
    <Input.Search
      allowClear
      value={text}
      placeholder={placeholder}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value === '') onSearch('');
      }}
      onSearch={(s) => onSearch(s.trim())}
      enterButton={t('admin.search')}
      style={{ width }}
      data-testid={testId}
    />
  );
}
