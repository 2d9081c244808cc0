import { Box, Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

/** A JSON value as indented text (bodies, headers, audit records). */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      tabIndex={0}
      sx={{
        m: 0,
        p: 1.5,
        bgcolor: 'action.hover',
        borderRadius: 1,
        fontSize: 12,
        maxHeight: 360,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {value === undefined ? '—' : JSON.stringify(value, null, 2)}
    </Box>
  );
}

const STATE_COLOURS: Record<string, 'success' | 'error' | 'warning' | 'default' | 'info'> = {
  delivered: 'success',
  applied: 'success',
  success: 'success',
  failed: 'error',
  refused: 'error',
  http_error: 'error',
  network_error: 'error',
  timeout: 'error',
  redirect: 'warning',
  not_sent: 'warning',
  aborted: 'warning',
  pending: 'warning',
  received: 'info',
  ignored_repeat: 'default',
};

/** A state as a coloured chip with its translated name (`logs.states.<value>`). */
export function StateChip({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const value = record?.[source];
  return typeof value === 'string' ? <StateValueChip value={value} /> : null;
}

export function StateValueChip({ value }: { value: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATE_COLOURS[value] ?? 'default'}
      label={translate(`logs.states.${value}`, { _: value })}
    />
  );
}
