import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { installMatchMedia } from '../../test/dom';
import { SearchFilter } from './SearchFilter';

beforeAll(() => installMatchMedia());
afterEach(() => cleanup());

/** The test id marks the whole box (input and button), as on every screen. */
const input = () => screen.getByTestId('search').querySelector('input')!;
const button = () => screen.getByTestId('search').querySelector('button.ant-input-search-btn')!;

describe('filter-bar search box', () => {
  it('searches on Enter with the trimmed text, not while typing', () => {
    const onSearch = vi.fn();
    render(<SearchFilter placeholder="Name" onSearch={onSearch} testId="search" />);
    fireEvent.change(input(), { target: { value: '  Patrol B01 ' } });
    expect(onSearch).not.toHaveBeenCalled();
    expect(input().value).toBe('  Patrol B01 ');
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(onSearch).toHaveBeenLastCalledWith('Patrol B01');
    fireEvent.change(input(), { target: { value: 'B02' } });
    fireEvent.click(button());
    expect(onSearch).toHaveBeenLastCalledWith('B02');
    expect(onSearch).toHaveBeenCalledTimes(2);
  });

  it('searches for everything again when the box is emptied', () => {
    const onSearch = vi.fn();
    render(<SearchFilter placeholder="Name" onSearch={onSearch} testId="search" />);
    fireEvent.change(input(), { target: { value: 'B01' } });
    fireEvent.change(input(), { target: { value: '' } });
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenLastCalledWith('');
  });
});
