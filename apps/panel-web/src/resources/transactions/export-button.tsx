import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useNotify, useTranslate } from 'react-admin';
import type { PanelTransaction } from './types';

/** The most rows one export fetches (the data provider walks the cursor pages up to it). */
export const MAX_EXPORT_ROWS = 5_000;

/**
 * Exports what the list shows (its filters and order, every page) through `exporter`. Our own
 * button rather than react-admin's, so a failure is reported in words and the fetch is bounded.
 */
export function QueueExportButton({ exporter }: { exporter: (records: PanelTransaction[]) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const { resource, filterValues, sort } = useListContext<PanelTransaction>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { data } = await dataProvider.getList<PanelTransaction>(resource, {
        filter: filterValues,
        sort,
        pagination: { page: 1, perPage: MAX_EXPORT_ROWS },
      });
      exporter(data);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void run()}>
      {translate('tg.queue.export')}
    </Button>
  );
}
