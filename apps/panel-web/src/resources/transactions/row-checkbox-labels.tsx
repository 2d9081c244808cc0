import { useEffect } from 'react';
import { useTranslate } from 'react-admin';

/**
 * react-admin puts the row checkbox's aria-label on MUI's wrapper span, not on the input, so a
 * screen reader meets an unnamed checkbox. This names each row checkbox input of the table with
 * `data-testid=<testId>` (and keeps doing so as the list re-renders).
 */
export function RowCheckboxLabels({ testId }: { testId: string }) {
  const translate = useTranslate();
  useEffect(() => {
    const label = translate('ra.action.select_row', { _: 'Select this row' });
    const apply = () => {
      for (const input of document.querySelectorAll<HTMLInputElement>(
        `[data-testid="${testId}"] tbody input[type=checkbox]:not([aria-label])`,
      )) {
        input.setAttribute('aria-label', label);
      }
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [testId, translate]);
  return null;
}
