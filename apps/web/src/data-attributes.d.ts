import 'react';

declare module 'react' {
  /**
   * `data-*` attributes (test ids, a row's state for styles) in props objects that reach the DOM: antd's
   * okButtonProps, a table's onRow and getCheckboxProps. JSX accepts them on elements; with this, objects of
   * those props types do too. On AriaAttributes because every element's attributes and antd's checkbox
   * props extend it.
   */
  interface AriaAttributes {
    [dataAttribute: `data-${string}`]: string | number | boolean | undefined;
  }
}
