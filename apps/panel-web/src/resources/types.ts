import type { ComponentType, ReactElement } from 'react';

/** What a screen module contributes to the app: one react-admin <Resource> each. */
export interface PanelResource {
  name: string;
  // react-admin accepts a component or an element for each view.
  list?: ComponentType | ReactElement;
  edit?: ComponentType | ReactElement;
  create?: ComponentType | ReactElement;
  show?: ComponentType | ReactElement;
  icon?: ComponentType;
  options?: { label: string };
}
